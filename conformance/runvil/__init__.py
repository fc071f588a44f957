"""runvil conformance cases: every spec example a run can show (see README.md)."""
