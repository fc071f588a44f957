# Vector collision detection (CD): aircraft move in frames; each motion is
# drawn into a voxel map keyed by tuples of coordinates, and motions sharing
# a voxel are tested for intersection with Vector3D objects whose methods
# (plus, minus, times, dot) allocate new vectors on every step.
import math

MIN_X, MIN_Y, MAX_X, MAX_Y = 0.0, 0.0, 1000.0, 1000.0
MIN_Z, MAX_Z = 0.0, 10.0
PROXIMITY_RADIUS = 1.0
GOOD_VOXEL_SIZE = PROXIMITY_RADIUS * 2


class Vector2D:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def plus(self, other):
        return Vector2D(self.x + other.x, self.y + other.y)

    def minus(self, other):
        return Vector2D(self.x - other.x, self.y - other.y)

    def key(self):
        return (self.x, self.y)


class Vector3D:
    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def plus(self, other):
        return Vector3D(self.x + other.x, self.y + other.y, self.z + other.z)

    def minus(self, other):
        return Vector3D(self.x - other.x, self.y - other.y, self.z - other.z)

    def dot(self, other):
        return self.x * other.x + self.y * other.y + self.z * other.z

    def squared_magnitude(self):
        return self.dot(self)

    def magnitude(self):
        return math.sqrt(self.squared_magnitude())

    def times(self, amount):
        return Vector3D(self.x * amount, self.y * amount, self.z * amount)


class Motion:
    def __init__(self, callsign, pos_one, pos_two):
        self.callsign = callsign
        self.pos_one = pos_one
        self.pos_two = pos_two

    def delta(self):
        return self.pos_two.minus(self.pos_one)

    def find_intersection(self, other):
        init1, init2 = self.pos_one, other.pos_one
        vec1, vec2 = self.delta(), other.delta()
        radius = PROXIMITY_RADIUS
        a = vec2.minus(vec1).squared_magnitude()
        if a != 0:
            b = 2 * init1.minus(init2).dot(vec1.minus(vec2))
            c = -radius * radius + init2.minus(init1).squared_magnitude()
            discr = b * b - 4 * a * c
            if discr < 0:
                return None
            v1 = (-b - math.sqrt(discr)) / (2 * a)
            v2 = (-b + math.sqrt(discr)) / (2 * a)
            if v1 <= v2 and ((v1 <= 1 and 1 <= v2) or (v1 <= 0 and 0 <= v2) or (0 <= v1 and v2 <= 1)):
                v = 0 if v1 <= 0 else v1
                result1 = init1.plus(vec1.times(v))
                result2 = init2.plus(vec2.times(v))
                result = result1.plus(result2).times(0.5)
                if (result.x >= MIN_X and result.x <= MAX_X and result.y >= MIN_Y
                        and result.y <= MAX_Y and result.z >= MIN_Z and result.z <= MAX_Z):
                    return result
            return None
        if init2.minus(init1).magnitude() <= radius:
            return init1.plus(init2).times(0.5)
        return None


class Aircraft:
    def __init__(self, callsign, position):
        self.callsign = callsign
        self.position = position


class Collision:
    def __init__(self, a, b, position):
        self.a = a
        self.b = b
        self.position = position


HORIZONTAL = Vector2D(GOOD_VOXEL_SIZE, 0.0)
VERTICAL = Vector2D(0.0, GOOD_VOXEL_SIZE)


def axis_overlaps(v, p0, pv, r, size):
    if pv == 0:
        return v <= p0 + r and p0 - r <= v + size, None, None
    low, high = (v - r - p0) / pv, (v + size + r - p0) / pv
    if pv < 0:
        low, high = high, low
    return (low <= 1 and 1 <= high) or (low <= 0 and 0 <= high) or (0 <= low and high <= 1), low, high


class CollisionDetector:
    def __init__(self):
        self.state = {}

    def is_in_voxel(self, voxel, motion):
        if voxel.x > MAX_X or voxel.x < MIN_X or voxel.y > MAX_Y or voxel.y < MIN_Y:
            return False
        init, fin = motion.pos_one, motion.pos_two
        r = PROXIMITY_RADIUS / 2
        xv, yv = fin.x - init.x, fin.y - init.y
        x_ok, low_x, high_x = axis_overlaps(voxel.x, init.x, xv, r, GOOD_VOXEL_SIZE)
        if not x_ok:
            return False
        y_ok, low_y, high_y = axis_overlaps(voxel.y, init.y, yv, r, GOOD_VOXEL_SIZE)
        if not y_ok:
            return False
        return (xv == 0 or yv == 0 or (low_y <= high_x and high_x <= high_y)
                or (low_y <= low_x and low_x <= high_y) or (low_x <= low_y and high_y <= high_x))

    def voxel_hash(self, position):
        x_div = math.floor(position.x / GOOD_VOXEL_SIZE)
        y_div = math.floor(position.y / GOOD_VOXEL_SIZE)
        x, y = GOOD_VOXEL_SIZE * x_div, GOOD_VOXEL_SIZE * y_div
        if position.x < 0:
            x = x - GOOD_VOXEL_SIZE
        if position.y < 0:
            y = y - GOOD_VOXEL_SIZE
        return Vector2D(x, y)

    def recurse(self, voxel_map, seen, next_voxel, motion):
        if not self.is_in_voxel(next_voxel, motion):
            return
        key = next_voxel.key()
        if key in seen:
            return
        seen.add(key)
        motions = voxel_map.get(key)
        if motions is None:
            motions = []
            voxel_map[key] = motions
        motions.append(motion)
        self.recurse(voxel_map, seen, next_voxel.minus(HORIZONTAL), motion)
        self.recurse(voxel_map, seen, next_voxel.plus(HORIZONTAL), motion)
        self.recurse(voxel_map, seen, next_voxel.minus(VERTICAL), motion)
        self.recurse(voxel_map, seen, next_voxel.plus(VERTICAL), motion)
        self.recurse(voxel_map, seen, next_voxel.minus(HORIZONTAL).minus(VERTICAL), motion)
        self.recurse(voxel_map, seen, next_voxel.minus(HORIZONTAL).plus(VERTICAL), motion)
        self.recurse(voxel_map, seen, next_voxel.plus(HORIZONTAL).minus(VERTICAL), motion)
        self.recurse(voxel_map, seen, next_voxel.plus(HORIZONTAL).plus(VERTICAL), motion)

    def reduce_collision_set(self, motions):
        voxel_map = {}
        for motion in motions:
            self.recurse(voxel_map, set(), self.voxel_hash(motion.pos_one), motion)
        return [group for group in voxel_map.values() if len(group) > 1]

    def handle_new_frame(self, frame):
        motions = []
        seen = set()
        for aircraft in frame:
            old_position = self.state.get(aircraft.callsign)
            new_position = aircraft.position
            self.state[aircraft.callsign] = new_position
            seen.add(aircraft.callsign)
            motions.append(Motion(aircraft.callsign, old_position or new_position, new_position))
        for callsign in [c for c in self.state if c not in seen]:
            del self.state[callsign]
        collisions = []
        for group in self.reduce_collision_set(motions):
            for i, motion1 in enumerate(group):
                for motion2 in group[i + 1:]:
                    collision = motion1.find_intersection(motion2)
                    if collision is not None:
                        collisions.append(Collision(motion1.callsign, motion2.callsign, collision))
        return collisions


class Simulator:
    def __init__(self, num_aircraft):
        self.callsigns = ["flight" + str(i) for i in range(num_aircraft)]

    def simulate(self, time):
        frame = []
        callsigns = self.callsigns
        for i in range(0, len(callsigns), 2):
            frame.append(Aircraft(callsigns[i],
                                  Vector3D(time, math.cos(time) * 2 + i * 3, 10.0)))
            frame.append(Aircraft(callsigns[i + 1],
                                  Vector3D(time, math.sin(time) * 2 + i * 3, 10.0)))
        return frame


def main():
    simulator = Simulator(100)
    detector = CollisionDetector()
    count, where = 0, 0
    for i in range(40):
        collisions = detector.handle_new_frame(simulator.simulate(i / 10))
        count = count + len(collisions)
        for collision in collisions:
            where = where + math.floor(collision.position.y * 100) + len(collision.a)
    print("cd: collisions = %d, where = %d" % (count, where))


main()
