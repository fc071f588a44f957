# String-keyed records: employee records as dicts with string keys, an
# index by name built from "emp" + str(i), fields read and written through
# variable keys (r[field]), groups keyed by strings made from numbers, a
# sorted report with %-formatting; a Roster class holds it all.
DEPTS = ["sales", "research", "support", "finance", "legal", "ops", "admin"]
CITIES = ["Oslo", "Lima", "Pune", "Kobe", "Graz"]
FIELDS = ["salary", "age", "bonus"]


class Roster:
    def __init__(self):
        self.records = []
        self.by_name = {}
        self.groups = {}

    def add(self, i):
        record = {
            "name": "emp" + str(i),
            "dept": DEPTS[i % len(DEPTS)],
            "city": CITIES[i % len(CITIES)],
            "salary": 30000 + (i * 7919) % 50000,
            "age": 20 + (i * 31) % 45,
            "bonus": 0,
        }
        self.records.append(record)
        self.by_name[record["name"]] = record
        return record

    def adjust(self, round_):
        for i, record in enumerate(self.records, 1):
            field = FIELDS[(i + round_) % len(FIELDS)]
            record[field] = record[field] + (i + round_) % 3

    def promote(self, ids, rate):
        found = 0
        for id_ in ids:
            record = self.by_name.get("emp" + str(id_))
            if record is not None:
                record["salary"] = record["salary"] + record["salary"] * rate // 100
                record["bonus"] = record["bonus"] + rate
                found = found + 1
        return found

    def group(self):
        groups = {}
        for record in self.records:
            key = record["dept"] + "/" + record["city"] + "/" + str(record["age"] // 10)
            group = groups.get(key)
            if group is None:
                group = {"key": key, "count": 0, "total": 0, "oldest": 0}
                groups[key] = group
            group["count"] = group["count"] + 1
            group["total"] = group["total"] + record["salary"] + record["bonus"]
            if record["age"] > group["oldest"]:
                group["oldest"] = record["age"]
        self.groups = groups

    def report(self):
        lines = []
        for key in sorted(self.groups):
            group = self.groups[key]
            lines.append("%-24s %4d %10d %3d" % (key, group["count"],
                                                 group["total"] // group["count"],
                                                 group["oldest"]))
        return "\n".join(lines)


def main():
    roster = Roster()
    for i in range(1, 4001):
        roster.add(i)
    promoted = 0
    length = 0
    for round_ in range(1, 29):
        roster.adjust(round_)
        ids = [(k * round_ * 37) % 4500 for k in range(1, 501)]
        promoted = promoted + roster.promote(ids, round_)
        roster.group()
        length = length + len(roster.report())
    checksum = 0
    for record in roster.records:
        checksum = (checksum + record["salary"] + record["age"] * 3 + record["bonus"]) % 1000000007
    print("records: promoted = %d, report = %d, checksum = %d" % (promoted, length, checksum))


main()
