# A graph loop finder (Havlak): a control-flow graph of BasicBlock objects
# built through edge objects, a depth-first numbering in a dict keyed by the
# blocks themselves, union-find nodes, loops in a LoopStructureGraph, lists
# grown with append and walked with for and len.
import sys

UNVISITED = sys.maxsize
MAXNONBACKPREDS = 32 * 1024
BB_NONHEADER, BB_REDUCIBLE, BB_SELF, BB_IRREDUCIBLE, BB_DEAD = 1, 2, 3, 4, 5


class BasicBlock:
    def __init__(self, name):
        self.name = name
        self.in_edges = []
        self.out_edges = []

    def num_pred(self):
        return len(self.in_edges)

    def add_out_edge(self, to):
        self.out_edges.append(to)

    def add_in_edge(self, frm):
        self.in_edges.append(frm)


class BasicBlockEdge:
    def __init__(self, frm, to):
        self.frm = frm
        self.to = to


class ControlFlowGraph:
    def __init__(self):
        self.blocks = []
        self.edges = []
        self.start_node = None

    def create_node(self, name):
        if name < len(self.blocks):
            return self.blocks[name]
        node = BasicBlock(name)
        self.blocks.append(node)
        if len(self.blocks) == 1:
            self.start_node = node
        return node

    def add_edge(self, from_name, to_name):
        frm = self.create_node(from_name)
        to = self.create_node(to_name)
        frm.add_out_edge(to)
        to.add_in_edge(frm)
        self.edges.append(BasicBlockEdge(frm, to))

    def num_nodes(self):
        return len(self.blocks)


class SimpleLoop:
    def __init__(self, bb, is_reducible):
        self.counter = 0
        self.depth_level = 0
        self.parent = None
        self.is_root = False
        self.nesting_level = 0
        self.header = bb
        self.is_reducible = is_reducible
        self.basic_blocks = []
        self.children = []
        if bb is not None:
            self.basic_blocks.append(bb)

    def add_node(self, bb):
        self.basic_blocks.append(bb)

    def set_parent(self, parent):
        self.parent = parent
        parent.children.append(self)

    def set_nesting_level(self, level):
        self.nesting_level = level
        if level == 0:
            self.is_root = True


class LoopStructureGraph:
    def __init__(self):
        self.root = SimpleLoop(None, True)
        self.loops = [self.root]
        self.loop_counter = 1
        self.root.set_nesting_level(0)

    def create_new_loop(self, bb, is_reducible):
        loop = SimpleLoop(bb, is_reducible)
        loop.counter = self.loop_counter
        self.loop_counter = self.loop_counter + 1
        self.loops.append(loop)
        return loop

    def calculate_nesting_level(self):
        for loop in self.loops:
            if not loop.is_root and loop.parent is None:
                loop.set_parent(self.root)
        self.calculate_nesting_level_rec(self.root, 0)

    def calculate_nesting_level_rec(self, loop, depth):
        loop.depth_level = depth
        for child in loop.children:
            self.calculate_nesting_level_rec(child, depth + 1)
            loop.set_nesting_level(max(loop.nesting_level, 1 + child.nesting_level))

    def num_loops(self):
        return len(self.loops)


class UnionFindNode:
    def __init__(self):
        self.parent = None
        self.bb = None
        self.loop = None
        self.dfs_number = 0

    def init_node(self, bb, dfs_number):
        self.parent = self
        self.bb = bb
        self.dfs_number = dfs_number
        self.loop = None

    def find_set(self):
        path = []
        node = self
        while node is not node.parent:
            if node.parent is not node.parent.parent:
                path.append(node)
            node = node.parent
        for n in path:
            n.parent = node.parent
        return node

    def union(self, other):
        self.parent = other


class HavlakLoopFinder:
    def __init__(self, cfg, lsg):
        self.cfg = cfg
        self.lsg = lsg
        self.non_back_preds = []
        self.back_preds = []
        self.number = {}
        self.header = []
        self.type = []
        self.last = []
        self.nodes = []

    def is_ancestor(self, w, v):
        return w <= v <= self.last[w]

    def do_dfs(self, current_node, current):
        self.nodes[current].init_node(current_node, current)
        self.number[current_node] = current
        last_id = current
        for target in current_node.out_edges:
            if self.number[target] == UNVISITED:
                last_id = self.do_dfs(target, last_id + 1)
        self.last[self.number[current_node]] = last_id
        return last_id

    def init_all_nodes(self):
        for bb in self.cfg.blocks:
            self.number[bb] = UNVISITED
        self.do_dfs(self.cfg.start_node, 0)

    def identify_edges(self, size):
        for w in range(size):
            self.header[w] = 0
            self.type[w] = BB_NONHEADER
            node_w = self.nodes[w].bb
            if node_w is None:
                self.type[w] = BB_DEAD
            elif node_w.num_pred() > 0:
                for node_v in node_w.in_edges:
                    v = self.number[node_v]
                    if v != UNVISITED:
                        if self.is_ancestor(w, v):
                            self.back_preds[w].append(v)
                        else:
                            self.non_back_preds[w].add(v)

    def find_loops(self):
        if self.cfg.start_node is None:
            return
        size = self.cfg.num_nodes()
        self.non_back_preds = [set() for _ in range(size)]
        self.back_preds = [[] for _ in range(size)]
        self.nodes = [UnionFindNode() for _ in range(size)]
        self.header = [0] * size
        self.type = [0] * size
        self.last = [0] * size
        self.init_all_nodes()
        self.identify_edges(size)
        self.header[0] = 0
        for w in range(size - 1, -1, -1):
            node_pool = []
            node_w = self.nodes[w].bb
            if node_w is not None:
                self.step_d(w, node_pool)
                work_list = list(node_pool)
                if len(node_pool) != 0:
                    self.type[w] = BB_REDUCIBLE
                while work_list:
                    x = work_list.pop(0)
                    if len(self.non_back_preds[x.dfs_number]) > MAXNONBACKPREDS:
                        return
                    self.step_e_process_non_back_preds(w, node_pool, work_list, x)
                if len(node_pool) > 0 or self.type[w] == BB_SELF:
                    loop = self.lsg.create_new_loop(node_w, self.type[w] != BB_IRREDUCIBLE)
                    self.set_loop_attributes(w, node_pool, loop)

    def step_d(self, w, node_pool):
        for v in self.back_preds[w]:
            if v != w:
                node_pool.append(self.nodes[v].find_set())
            else:
                self.type[w] = BB_SELF

    def step_e_process_non_back_preds(self, w, node_pool, work_list, x):
        for v in self.non_back_preds[x.dfs_number]:
            ydash = self.nodes[v].find_set()
            if not self.is_ancestor(w, ydash.dfs_number):
                self.type[w] = BB_IRREDUCIBLE
                self.non_back_preds[w].add(ydash.dfs_number)
            elif ydash.dfs_number != w and ydash not in node_pool:
                work_list.append(ydash)
                node_pool.append(ydash)

    def set_loop_attributes(self, w, node_pool, loop):
        self.nodes[w].loop = loop
        for node in node_pool:
            self.header[node.dfs_number] = w
            node.union(self.nodes[w])
            if node.loop is not None:
                node.loop.set_parent(loop)
            else:
                loop.add_node(node.bb)


class LoopTester:
    def __init__(self):
        self.cfg = ControlFlowGraph()
        self.lsg = LoopStructureGraph()

    def build_connect(self, frm, to):
        self.cfg.add_edge(frm, to)

    def build_straight(self, start, n):
        for i in range(n):
            self.build_connect(start + i, start + i + 1)
        return start + n

    def build_diamond(self, start):
        self.build_connect(start, start + 1)
        self.build_connect(start, start + 2)
        self.build_connect(start + 1, start + 3)
        self.build_connect(start + 2, start + 3)
        return start + 3

    def build_base_loop(self, frm):
        header = self.build_straight(frm, 1)
        diamond1 = self.build_diamond(header)
        d11 = self.build_straight(diamond1, 1)
        diamond2 = self.build_diamond(d11)
        footer = self.build_straight(diamond2, 1)
        self.build_connect(diamond2, d11)
        self.build_connect(diamond1, header)
        self.build_connect(footer, frm)
        return self.build_straight(footer, 1)

    def find_loops(self, lsg):
        HavlakLoopFinder(self.cfg, lsg).find_loops()
        lsg.calculate_nesting_level()
        return lsg

    def run(self, par_loops, ppar_loops, pppar_loops, iterations):
        self.cfg.create_node(0)
        self.build_base_loop(0)
        self.cfg.create_node(1)
        self.build_connect(0, 2)
        n = 2
        for _ in range(par_loops):
            self.cfg.create_node(n + 1)
            self.build_connect(2, n + 1)
            n = n + 1
            for _ in range(ppar_loops):
                top = n
                n = self.build_straight(n, 1)
                for _ in range(pppar_loops):
                    n = self.build_base_loop(n)
                bottom = self.build_straight(n, 1)
                self.build_connect(n, top)
                n = bottom
            self.build_connect(n, 1)
        self.find_loops(self.lsg)
        depth = 0
        for _ in range(iterations):
            lsg = self.find_loops(LoopStructureGraph())
            for loop in lsg.loops:
                depth = depth + loop.depth_level + loop.nesting_level
        return self.lsg.num_loops(), self.cfg.num_nodes(), depth


def main():
    loops, nodes, depth = LoopTester().run(6, 6, 5, 15)
    print("havlak: loops = %d, nodes = %d, depth = %d" % (loops, nodes, depth))


main()
