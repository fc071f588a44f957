"""The project's own conformance suites (see conformance/lua/README.md)."""
