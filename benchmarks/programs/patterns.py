# Pattern matching: re.findall with and without groups, re.sub/re.subn
# with a replacement template (\1 references), with a function, and with a
# character class, over a generated text of ~200 KB.
import re

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta",
         "eta", "theta", "iota", "kappa", "lambda", "mu"]


def make_text(n):
    seed = 12345
    parts = []
    for i in range(1, n + 1):
        seed = (seed * 1103515245 + 12345) % 2147483648
        w = WORDS[seed % len(WORDS)]
        if seed % 5 == 0:
            w = w + "=" + str(seed % 1000)
        if i % 12 == 0:
            w = w + ".\n"
        parts.append(w)
    return " ".join(parts)


def run(text):
    freq, distinct, words = {}, 0, 0
    for w in re.findall(r"[A-Za-z]+", text):
        c = freq.get(w)
        if c is None:
            distinct = distinct + 1
            c = 0
        freq[w] = c + 1
        words = words + 1

    pairs_sum, npairs = 0, 0
    for k, v in re.findall(r"([A-Za-z]+)=([0-9]+)", text):
        pairs_sum = pairs_sum + len(k) * int(v)
        npairs = npairs + 1

    lines = 0
    for line in re.findall(r"[^\n]+", text):
        if "gamma" in line:
            lines = lines + 1

    swapped, nswap = re.subn(r"([A-Za-z]+)=([0-9]+)", r"\2:\1", text)
    doubled = re.sub(r"[0-9]+", lambda m: str(int(m.group()) * 2), text)
    squeezed, nspace = re.subn(r"\s+", " ", text)
    return ("words = %d, distinct = %d, gamma = %d, pairs = %d/%d, lines = %d, "
            "swapped = %d/%d, doubled = %d, squeezed = %d/%d"
            % (words, distinct, freq["gamma"], npairs, pairs_sum, lines,
               len(swapped), nswap, len(doubled), len(squeezed), nspace))


def main():
    text = make_text(30000)
    for _ in range(7):
        result = run(text)
    print(result)


main()
