# Shapes: a scene of circles, rectangles and polygons moved frame by frame;
# a class per kind of shape under a base class, and vector methods that
# allocate a new vector on every step.


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def plus(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def minus(self, o):
        return Vec(self.x - o.x, self.y - o.y)

    def scaled(self, k):
        return Vec(self.x * k, self.y * k)

    def dot(self, o):
        return self.x * o.x + self.y * o.y

    def cross(self, o):
        return self.x * o.y - self.y * o.x


class Box:
    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi

    def overlaps(self, o):
        return self.lo.x <= o.hi.x and o.lo.x <= self.hi.x and self.lo.y <= o.hi.y and o.lo.y <= self.hi.y


class Shape:
    def __init__(self, id_, center):
        self.id = id_
        self.center = center
        self.hits = 0

    def moved(self, step):
        self.center = self.center.plus(step)

    def describe(self):
        return "%s#%d area=%.3f box=%.3f,%.3f" % (self.kind(), self.id, self.area(),
                                                  self.bounds().lo.x, self.bounds().hi.y)


class Circle(Shape):
    def __init__(self, id_, center, r):
        super().__init__(id_, center)
        self.r = r

    def kind(self):
        return "circle"

    def area(self):
        return 3.25 * self.r * self.r

    def bounds(self):
        d = Vec(self.r, self.r)
        return Box(self.center.minus(d), self.center.plus(d))


class Rect(Shape):
    def __init__(self, id_, center, w, h):
        super().__init__(id_, center)
        self.half = Vec(w / 2, h / 2)

    def kind(self):
        return "rect"

    def area(self):
        return 4 * self.half.x * self.half.y

    def bounds(self):
        return Box(self.center.minus(self.half), self.center.plus(self.half))


class Polygon(Shape):
    def __init__(self, id_, center, points):
        super().__init__(id_, center)
        self.points = points

    def kind(self):
        return "polygon"

    def area(self):
        total, pts = 0, self.points
        for i in range(len(pts)):
            total = total + pts[i].cross(pts[(i + 1) % len(pts)])
        return abs(total) / 2

    def bounds(self):
        lo = hi = self.center.plus(self.points[0])
        for p in self.points:
            q = self.center.plus(p)
            lo = Vec(min(lo.x, q.x), min(lo.y, q.y))
            hi = Vec(max(hi.x, q.x), max(hi.y, q.y))
        return Box(lo, hi)


class Scene:
    def __init__(self):
        self.shapes = []
        self.seed = 42

    def random(self, n):
        self.seed = (self.seed * 1103515245 + 12345) % 2147483648
        return self.seed % n

    def populate(self, count):
        for id_ in range(1, count + 1):
            center = Vec(self.random(400), self.random(400))
            kind = id_ % 3
            if kind == 0:
                shape = Circle(id_, center, 2 + self.random(10))
            elif kind == 1:
                shape = Rect(id_, center, 2 + self.random(16), 2 + self.random(16))
            else:
                pts = [Vec(self.random(12) - 6, self.random(12) - 6) for _ in range(3 + self.random(4))]
                shape = Polygon(id_, center, pts)
            self.shapes.append(shape)

    def frame(self, t):
        boxes = []
        for i, s in enumerate(self.shapes, 1):
            s.moved(Vec((i + t) % 7 - 3, (i * t) % 5 - 2))
            boxes.append(s.bounds())
        hits = 0
        for i in range(len(boxes)):
            for j in range(i + 1, min(len(boxes), i + 9)):
                if boxes[i].overlaps(boxes[j]):
                    hits = hits + 1
                    self.shapes[i].hits = self.shapes[i].hits + 1
        return hits


def main():
    scene = Scene()
    scene.populate(300)
    total = 0
    for t in range(1, 61):
        total = total + scene.frame(t)
    area = 0
    for s in scene.shapes:
        area = area + s.area()
    print("shapes: %d hits, area %.3f; %s; %s; %s" % (total, area, scene.shapes[6].describe(),
                                                      scene.shapes[7].describe(), scene.shapes[8].describe()))


main()
