# Constraint solver with class hierarchies (DeltaBlue): constraints in a
# three-level chain of classes (Constraint <- BinaryConstraint <-
# ScaleConstraint), methods overridden and inherited, strengths as shared
# objects, plans as lists, a chain and a projection test.


class Strength:
    def __init__(self, value, name):
        self.value = value
        self.name = name

    def next_weaker(self):
        return NEXT_WEAKER[self.value]


REQUIRED = Strength(0, "required")
STRONG_PREFERRED = Strength(1, "strongPreferred")
PREFERRED = Strength(2, "preferred")
STRONG_DEFAULT = Strength(3, "strongDefault")
NORMAL = Strength(4, "normal")
WEAK_DEFAULT = Strength(5, "weakDefault")
WEAKEST = Strength(6, "weakest")
NEXT_WEAKER = [STRONG_PREFERRED, PREFERRED, STRONG_DEFAULT, NORMAL,
               WEAK_DEFAULT, WEAKEST]


def stronger(s1, s2):
    return s1.value < s2.value


def weaker(s1, s2):
    return s1.value > s2.value


def weakest_of(s1, s2):
    if weaker(s1, s2):
        return s1
    return s2


NONE, FORWARD, BACKWARD = 0, 1, -1
planner = None


class Variable:
    def __init__(self, name, value=0):
        self.name = name
        self.value = value
        self.constraints = []
        self.determined_by = None
        self.mark = 0
        self.walk_strength = WEAKEST
        self.stay = True

    def add_constraint(self, c):
        self.constraints.append(c)

    def remove_constraint(self, c):
        self.constraints = [x for x in self.constraints if x is not c]
        if self.determined_by is c:
            self.determined_by = None


class Constraint:
    def __init__(self, strength):
        self.strength = strength

    def add_constraint(self):
        self.add_to_graph()
        planner.incremental_add(self)

    def satisfy(self, mark):
        self.choose_method(mark)
        if not self.is_satisfied():
            if self.strength is REQUIRED:
                raise RuntimeError("Could not satisfy a required constraint!")
            return None
        self.mark_inputs(mark)
        out = self.output()
        overridden = out.determined_by
        if overridden is not None:
            overridden.mark_unsatisfied()
        out.determined_by = self
        if not planner.add_propagate(self, mark):
            raise RuntimeError("Cycle encountered")
        out.mark = mark
        return overridden

    def destroy_constraint(self):
        if self.is_satisfied():
            planner.incremental_remove(self)
        else:
            self.remove_from_graph()

    def is_input(self):
        return False


class UnaryConstraint(Constraint):
    def __init__(self, v, strength):
        super().__init__(strength)
        self.my_output = v
        self.satisfied = False
        self.add_constraint()

    def add_to_graph(self):
        self.my_output.add_constraint(self)
        self.satisfied = False

    def choose_method(self, mark):
        self.satisfied = (self.my_output.mark != mark
                          and stronger(self.strength, self.my_output.walk_strength))

    def is_satisfied(self):
        return self.satisfied

    def mark_inputs(self, mark):
        pass

    def output(self):
        return self.my_output

    def recalculate(self):
        self.my_output.walk_strength = self.strength
        self.my_output.stay = not self.is_input()
        if self.my_output.stay:
            self.execute()

    def mark_unsatisfied(self):
        self.satisfied = False

    def inputs_known(self, mark):
        return True

    def remove_from_graph(self):
        if self.my_output is not None:
            self.my_output.remove_constraint(self)
        self.satisfied = False


class StayConstraint(UnaryConstraint):
    def execute(self):
        pass


class EditConstraint(UnaryConstraint):
    def is_input(self):
        return True

    def execute(self):
        pass


class BinaryConstraint(Constraint):
    def __init__(self, v1, v2, strength):
        super().__init__(strength)
        self.v1 = v1
        self.v2 = v2
        self.direction = NONE
        self.add_constraint()

    def choose_method(self, mark):
        v1, v2 = self.v1, self.v2
        if v1.mark == mark:
            if v2.mark != mark and stronger(self.strength, v2.walk_strength):
                self.direction = FORWARD
            else:
                self.direction = NONE
        if v2.mark == mark:
            if v1.mark != mark and stronger(self.strength, v1.walk_strength):
                self.direction = BACKWARD
            else:
                self.direction = NONE
        if weaker(v1.walk_strength, v2.walk_strength):
            if stronger(self.strength, v1.walk_strength):
                self.direction = BACKWARD
            else:
                self.direction = NONE
        elif stronger(self.strength, v2.walk_strength):
            self.direction = FORWARD
        else:
            self.direction = BACKWARD

    def add_to_graph(self):
        self.v1.add_constraint(self)
        self.v2.add_constraint(self)
        self.direction = NONE

    def is_satisfied(self):
        return self.direction != NONE

    def mark_inputs(self, mark):
        self.input().mark = mark

    def input(self):
        if self.direction == FORWARD:
            return self.v1
        return self.v2

    def output(self):
        if self.direction == FORWARD:
            return self.v2
        return self.v1

    def recalculate(self):
        ihn, out = self.input(), self.output()
        out.walk_strength = weakest_of(self.strength, ihn.walk_strength)
        out.stay = ihn.stay
        if out.stay:
            self.execute()

    def mark_unsatisfied(self):
        self.direction = NONE

    def inputs_known(self, mark):
        i = self.input()
        return i.mark == mark or i.stay or i.determined_by is None

    def remove_from_graph(self):
        if self.v1 is not None:
            self.v1.remove_constraint(self)
        if self.v2 is not None:
            self.v2.remove_constraint(self)
        self.direction = NONE


class ScaleConstraint(BinaryConstraint):
    def __init__(self, src, scale, offset, dest, strength):
        self.scale = scale
        self.offset = offset
        super().__init__(src, dest, strength)

    def add_to_graph(self):
        super().add_to_graph()
        self.scale.add_constraint(self)
        self.offset.add_constraint(self)

    def remove_from_graph(self):
        super().remove_from_graph()
        if self.scale is not None:
            self.scale.remove_constraint(self)
        if self.offset is not None:
            self.offset.remove_constraint(self)

    def mark_inputs(self, mark):
        super().mark_inputs(mark)
        self.scale.mark = mark
        self.offset.mark = mark

    def execute(self):
        if self.direction == FORWARD:
            self.v2.value = self.v1.value * self.scale.value + self.offset.value
        else:
            self.v1.value = (self.v2.value - self.offset.value) / self.scale.value

    def recalculate(self):
        ihn, out = self.input(), self.output()
        out.walk_strength = weakest_of(self.strength, ihn.walk_strength)
        out.stay = ihn.stay and self.scale.stay and self.offset.stay
        if out.stay:
            self.execute()


class EqualityConstraint(BinaryConstraint):
    def execute(self):
        self.output().value = self.input().value


class Plan:
    def __init__(self):
        self.constraints = []

    def add_constraint(self, c):
        self.constraints.append(c)

    def execute(self):
        for c in self.constraints:
            c.execute()


class Planner:
    def __init__(self):
        self.current_mark = 0

    def new_mark(self):
        self.current_mark = self.current_mark + 1
        return self.current_mark

    def incremental_add(self, c):
        mark = self.new_mark()
        overridden = c.satisfy(mark)
        while overridden is not None:
            overridden = overridden.satisfy(mark)

    def incremental_remove(self, c):
        out = c.output()
        c.mark_unsatisfied()
        c.remove_from_graph()
        unsatisfied = self.remove_propagate_from(out)
        strength = REQUIRED
        while True:
            for u in unsatisfied:
                if u.strength is strength:
                    self.incremental_add(u)
            strength = strength.next_weaker()
            if strength is WEAKEST:
                break

    def make_plan(self, sources):
        mark = self.new_mark()
        plan = Plan()
        todo = sources
        while todo:
            c = todo.pop(0)
            if c.output().mark != mark and c.inputs_known(mark):
                plan.add_constraint(c)
                c.output().mark = mark
                self.add_constraints_consuming_to(c.output(), todo)
        return plan

    def extract_plan_from_constraints(self, constraints):
        sources = []
        for c in constraints:
            if c.is_input() and c.is_satisfied():
                sources.append(c)
        return self.make_plan(sources)

    def add_propagate(self, c, mark):
        todo = [c]
        while todo:
            d = todo.pop(0)
            if d.output().mark == mark:
                self.incremental_remove(c)
                return False
            d.recalculate()
            self.add_constraints_consuming_to(d.output(), todo)
        return True

    def remove_propagate_from(self, out):
        out.determined_by = None
        out.walk_strength = WEAKEST
        out.stay = True
        unsatisfied = []
        todo = [out]
        while todo:
            v = todo.pop(0)
            for c in v.constraints:
                if not c.is_satisfied():
                    unsatisfied.append(c)
            determining = v.determined_by
            for next_c in v.constraints:
                if next_c is not determining and next_c.is_satisfied():
                    next_c.recalculate()
                    todo.append(next_c.output())
        return unsatisfied

    def add_constraints_consuming_to(self, v, coll):
        determining = v.determined_by
        for c in v.constraints:
            if c is not determining and c.is_satisfied():
                coll.append(c)


def chain_test(n):
    global planner
    planner = Planner()
    prev = first = last = None
    for i in range(n + 1):
        v = Variable("v" + str(i))
        if prev is not None:
            EqualityConstraint(prev, v, REQUIRED)
        if i == 0:
            first = v
        if i == n:
            last = v
        prev = v
    StayConstraint(last, STRONG_DEFAULT)
    edit = EditConstraint(first, PREFERRED)
    plan = planner.extract_plan_from_constraints([edit])
    for i in range(100):
        first.value = i
        plan.execute()
        if last.value != i:
            raise RuntimeError("Chain test failed.")
    return planner.current_mark


def change(v, new_value):
    edit = EditConstraint(v, PREFERRED)
    plan = planner.extract_plan_from_constraints([edit])
    for _ in range(10):
        v.value = new_value
        plan.execute()
    edit.destroy_constraint()


def projection_test(n):
    global planner
    planner = Planner()
    scale = Variable("scale", 10)
    offset = Variable("offset", 1000)
    src = dst = None
    dests = []
    for i in range(n):
        src = Variable("src" + str(i), i)
        dst = Variable("dst" + str(i), i)
        dests.append(dst)
        StayConstraint(src, NORMAL)
        ScaleConstraint(src, scale, offset, dst, REQUIRED)
    change(src, 17)
    if dst.value != 1170:
        raise RuntimeError("Projection 1 failed")
    change(dst, 1050)
    if src.value != 5:
        raise RuntimeError("Projection 2 failed")
    change(scale, 5)
    for i in range(n - 1):
        if dests[i].value != i * 5 + 1000:
            raise RuntimeError("Projection 3 failed")
    change(offset, 2000)
    total = 0
    for i in range(n - 1):
        if dests[i].value != i * 5 + 2000:
            raise RuntimeError("Projection 4 failed")
        total = total + dests[i].value
    return planner.current_mark, total


def main():
    marks, total = 0, 0
    for _ in range(35):
        marks = marks + chain_test(100)
        m, t = projection_test(100)
        marks = marks + m
        total = total + t
    print("deltablue: marks = %d, total = %.1f" % (marks, total))


main()
