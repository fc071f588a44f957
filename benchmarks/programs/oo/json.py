# A JSON parser and serializer over strings: a Parser class reading
# character by character with slices, string building in lists and
# str.join, objects as dicts (which keep key order), numbers through
# int/float, escapes found and replaced with re.
import re


class Parser:
    def __init__(self, text):
        self.text = text
        self.pos = 0
        self.current = None
        self.read()

    def read(self):
        self.current = self.text[self.pos:self.pos + 1]
        self.pos = self.pos + 1

    def fail(self, expected):
        raise ValueError("Expected " + expected + " at " + str(self.pos))

    def skip_white_space(self):
        c = self.current
        while c == " " or c == "\n" or c == "\t" or c == "\r":
            self.read()
            c = self.current

    def read_char(self, ch):
        if self.current != ch:
            return False
        self.read()
        return True

    def expect(self, ch):
        if not self.read_char(ch):
            self.fail("'" + ch + "'")

    def parse(self):
        self.skip_white_space()
        value = self.read_value()
        self.skip_white_space()
        if self.current != "":
            self.fail("end of input")
        return value

    def read_value(self):
        c = self.current
        if c == "{":
            return self.read_object()
        elif c == "[":
            return self.read_array()
        elif c == '"':
            return self.read_string()
        elif c == "t":
            self.read_word("true")
            return True
        elif c == "f":
            self.read_word("false")
            return False
        elif c == "n":
            self.read_word("null")
            return None
        return self.read_number()

    def read_word(self, word):
        for ch in word:
            self.expect(ch)

    def read_object(self):
        self.read()
        obj = {}
        self.skip_white_space()
        if self.read_char("}"):
            return obj
        while True:
            self.skip_white_space()
            key = self.read_string()
            self.skip_white_space()
            self.expect(":")
            self.skip_white_space()
            obj[key] = self.read_value()
            self.skip_white_space()
            if not self.read_char(","):
                break
        self.expect("}")
        return obj

    def read_array(self):
        self.read()
        array = []
        self.skip_white_space()
        if self.read_char("]"):
            return array
        while True:
            self.skip_white_space()
            array.append(self.read_value())
            self.skip_white_space()
            if not self.read_char(","):
                break
        self.expect("]")
        return array

    def read_string(self):
        self.expect('"')
        parts = []
        start = self.pos - 1
        while self.current != '"':
            c = self.current
            if c == "\\":
                parts.append(self.text[start:self.pos - 1])
                self.read()
                unescaped = UNESCAPE.get(self.current)
                if unescaped is None:
                    self.fail("valid escape sequence")
                parts.append(unescaped)
                self.read()
                start = self.pos - 1
            elif c == "":
                self.fail("closing quote")
            else:
                self.read()
        parts.append(self.text[start:self.pos - 1])
        self.read()
        return "".join(parts)

    def read_number(self):
        start = self.pos - 1
        while self.current in NUMBER_CHARS:
            self.read()
        text = self.text[start:self.pos - 1]
        try:
            if "." in text or "e" in text or "E" in text:
                return float(text)
            return int(text)
        except ValueError:
            self.fail("value")


UNESCAPE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f",
            "n": "\n", "r": "\r", "t": "\t"}
NUMBER_CHARS = frozenset("-+.eE0123456789")
ESCAPE = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
NEEDS_ESCAPE = re.compile('[\x00-\x1f\x7f"\\\\]')


def _escape(match):
    c = match.group()
    return ESCAPE.get(c, c)


class Serializer:
    def __init__(self):
        self.parts = []

    def write_string(self, s):
        parts = self.parts
        if NEEDS_ESCAPE.search(s):
            s = NEEDS_ESCAPE.sub(_escape, s)
        parts.append('"')
        parts.append(s)
        parts.append('"')

    def write(self, value):
        parts = self.parts
        if isinstance(value, str):
            self.write_string(value)
        elif value is True or value is False:
            parts.append("true" if value else "false")
        elif isinstance(value, int):
            parts.append("%d" % value)
        elif isinstance(value, float):
            parts.append("%.14g" % value)
        elif value is None:
            parts.append("null")
        elif isinstance(value, dict):
            parts.append("{")
            for i, (key, item) in enumerate(value.items()):
                if i > 0:
                    parts.append(",")
                self.write_string(key)
                parts.append(":")
                self.write(item)
            parts.append("}")
        else:
            parts.append("[")
            for i, item in enumerate(value):
                if i > 0:
                    parts.append(",")
                self.write(item)
            parts.append("]")

    def result(self):
        return "".join(self.parts)


def serialize(value):
    s = Serializer()
    s.write(value)
    return s.result()


def make_document(n):
    items = []
    for i in range(1, n + 1):
        item = {}
        item["id"] = i
        item["name"] = "item " + str(i) + (' "special"\n' if i % 7 == 0 else "")
        item["price"] = i * 0.25
        item["active"] = i % 3 == 0
        item["tags"] = ["t" + str(i % 5), "t" + str(i % 11)]
        item["where"] = {"x": i * 3 - 100, "y": None if i % 4 == 0 else -i}
        items.append(item)
    return {"title": "inventory\twith\\escapes", "items": items}


def main():
    text = serialize(make_document(150))
    checksum = 0
    for _ in range(20):
        document = Parser(text).parse()
        for item in document["items"]:
            checksum = checksum + item["id"] + len(item["name"]) + len(item["tags"])
            if item["active"]:
                checksum = checksum + item["where"]["x"]
        again = serialize(document)
        if again != text:
            raise ValueError("round trip changed the document")
        checksum = checksum + len(again)
    print("json: %d bytes, checksum = %d" % (len(text), checksum))


main()
