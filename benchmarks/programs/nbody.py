# Float arithmetic: the n-body simulation (Jovian planets, symplectic
# integrator) from the Computer Language Benchmarks Game. Bodies are
# objects with named attributes; the hot loop is float +, -, *, / and sqrt.
from math import pi, sqrt

SOLAR_MASS = 4 * pi * pi
DAYS_PER_YEAR = 365.24


class Body:
    def __init__(self, x, y, z, vx, vy, vz, mass):
        self.x = x
        self.y = y
        self.z = z
        self.vx = vx * DAYS_PER_YEAR
        self.vy = vy * DAYS_PER_YEAR
        self.vz = vz * DAYS_PER_YEAR
        self.mass = mass * SOLAR_MASS


def make_bodies():
    return [
        Body(0, 0, 0, 0, 0, 0, 1),  # Sun
        Body(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
             1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
             9.54791938424326609e-04),  # Jupiter
        Body(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
             -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
             2.85885980666130812e-04),  # Saturn
        Body(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
             2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
             4.36624404335156298e-05),  # Uranus
        Body(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
             2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
             5.15138902046611451e-05),  # Neptune
    ]


def advance(bodies, nbody, dt):
    for i in range(nbody):
        bi = bodies[i]
        bix, biy, biz, bimass = bi.x, bi.y, bi.z, bi.mass
        bivx, bivy, bivz = bi.vx, bi.vy, bi.vz
        for j in range(i + 1, nbody):
            bj = bodies[j]
            dx, dy, dz = bix - bj.x, biy - bj.y, biz - bj.z
            d2 = dx * dx + dy * dy + dz * dz
            mag = dt / (d2 * sqrt(d2))
            bm = bj.mass * mag
            bivx = bivx - dx * bm
            bivy = bivy - dy * bm
            bivz = bivz - dz * bm
            bm = bimass * mag
            bj.vx = bj.vx + dx * bm
            bj.vy = bj.vy + dy * bm
            bj.vz = bj.vz + dz * bm
        bi.vx = bivx
        bi.vy = bivy
        bi.vz = bivz
        bi.x = bix + dt * bivx
        bi.y = biy + dt * bivy
        bi.z = biz + dt * bivz


def energy(bodies, nbody):
    e = 0.0
    for i in range(nbody):
        bi = bodies[i]
        vx, vy, vz, bim = bi.vx, bi.vy, bi.vz, bi.mass
        e = e + 0.5 * bim * (vx * vx + vy * vy + vz * vz)
        for j in range(i + 1, nbody):
            bj = bodies[j]
            dx, dy, dz = bi.x - bj.x, bi.y - bj.y, bi.z - bj.z
            e = e - bim * bj.mass / sqrt(dx * dx + dy * dy + dz * dz)
    return e


def offset_momentum(bodies, nbody):
    px, py, pz = 0.0, 0.0, 0.0
    for b in bodies:
        bim = b.mass
        px = px + b.vx * bim
        py = py + b.vy * bim
        pz = pz + b.vz * bim
    bodies[0].vx = -px / SOLAR_MASS
    bodies[0].vy = -py / SOLAR_MASS
    bodies[0].vz = -pz / SOLAR_MASS


def main(n):
    bodies = make_bodies()
    nbody = len(bodies)
    offset_momentum(bodies, nbody)
    e0 = energy(bodies, nbody)
    for _ in range(n):
        advance(bodies, nbody, 0.01)
    print("energy %.9f -> %.9f" % (e0, energy(bodies, nbody)))


main(60000)
