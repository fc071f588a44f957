# Method calls through class attribute lookup: a class, a subclass whose
# methods fall back to the base class, constructors, self attribute reads
# and writes, and obj.method() calls.


class Account:
    def __init__(self, id, balance):
        self.id = id
        self.balance = balance
        self.ops = 0

    def deposit(self, v):
        self.balance = self.balance + v
        self.ops = self.ops + 1

    def withdraw(self, v):
        if v > self.balance:
            return False
        self.balance = self.balance - v
        self.ops = self.ops + 1
        return True

    def get_balance(self):
        return self.balance


class Savings(Account):
    def __init__(self, id, balance, rate):
        super().__init__(id, balance)
        self.rate = rate

    def add_interest(self):
        self.deposit(self.get_balance() * self.rate // 1000)


def run(rounds):
    accounts = []
    for i in range(1, 101):
        if i % 2 == 0:
            accounts.append(Savings(i, 1000 + i, i % 9))
        else:
            accounts.append(Account(i, 1000 + i))
    failed = 0
    for r in range(1, rounds + 1):
        for i, a in enumerate(accounts, 1):
            a.deposit((r + i) % 50)
            if not a.withdraw((r * i) % 97):
                failed = failed + 1
        if r % 10 == 0:
            for a in accounts[1::2]:
                a.add_interest()
    total, ops = 0, 0
    for a in accounts:
        total = total + a.get_balance()
        ops = ops + a.ops
    return total, ops, failed


print("total = %d, ops = %d, failed = %d" % run(8000))
