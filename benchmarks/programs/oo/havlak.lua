-- A graph loop finder (Havlak): a control-flow graph of BasicBlock objects
-- built through edge objects, a depth-first numbering in a table keyed by
-- the blocks themselves, union-find nodes, loops in a LoopStructureGraph,
-- arrays grown with table.insert and walked with ipairs and #t.
local UNVISITED = math.maxinteger
local MAXNONBACKPREDS = 32 * 1024
local BB_NONHEADER, BB_REDUCIBLE, BB_SELF, BB_IRREDUCIBLE, BB_DEAD = 1, 2, 3, 4, 5

local BasicBlock = {}
BasicBlock.__index = BasicBlock

function BasicBlock.new(name)
  return setmetatable({name = name, in_edges = {}, out_edges = {}}, BasicBlock)
end

function BasicBlock:num_pred()
  return #self.in_edges
end

function BasicBlock:add_out_edge(to)
  table.insert(self.out_edges, to)
end

function BasicBlock:add_in_edge(from)
  table.insert(self.in_edges, from)
end

local ControlFlowGraph = {}
ControlFlowGraph.__index = ControlFlowGraph

function ControlFlowGraph.new()
  return setmetatable({blocks = {}, edges = {}, start_node = nil}, ControlFlowGraph)
end

function ControlFlowGraph:create_node(name)
  local node = self.blocks[name + 1]
  if node == nil then
    node = BasicBlock.new(name)
    self.blocks[name + 1] = node
    if #self.blocks == 1 then
      self.start_node = node
    end
  end
  return node
end

function ControlFlowGraph:add_edge(from_name, to_name)
  local from = self:create_node(from_name)
  local to = self:create_node(to_name)
  from:add_out_edge(to)
  to:add_in_edge(from)
  table.insert(self.edges, {from = from, to = to})
end

function ControlFlowGraph:num_nodes()
  return #self.blocks
end

local SimpleLoop = {}
SimpleLoop.__index = SimpleLoop

function SimpleLoop.new(bb, is_reducible)
  local self = setmetatable({counter = 0, depth_level = 0, parent = nil, is_root = false,
                             nesting_level = 0, header = bb, is_reducible = is_reducible,
                             basic_blocks = {}, children = {}}, SimpleLoop)
  if bb ~= nil then
    table.insert(self.basic_blocks, bb)
  end
  return self
end

function SimpleLoop:add_node(bb)
  table.insert(self.basic_blocks, bb)
end

function SimpleLoop:set_parent(parent)
  self.parent = parent
  table.insert(parent.children, self)
end

function SimpleLoop:set_nesting_level(level)
  self.nesting_level = level
  if level == 0 then
    self.is_root = true
  end
end

local LoopStructureGraph = {}
LoopStructureGraph.__index = LoopStructureGraph

function LoopStructureGraph.new()
  local root = SimpleLoop.new(nil, true)
  local self = setmetatable({root = root, loops = {root}, loop_counter = 1}, LoopStructureGraph)
  root:set_nesting_level(0)
  return self
end

function LoopStructureGraph:create_new_loop(bb, is_reducible)
  local loop = SimpleLoop.new(bb, is_reducible)
  loop.counter = self.loop_counter
  self.loop_counter = self.loop_counter + 1
  table.insert(self.loops, loop)
  return loop
end

function LoopStructureGraph:calculate_nesting_level()
  for _, loop in ipairs(self.loops) do
    if not loop.is_root and loop.parent == nil then
      loop:set_parent(self.root)
    end
  end
  self:calculate_nesting_level_rec(self.root, 0)
end

function LoopStructureGraph:calculate_nesting_level_rec(loop, depth)
  loop.depth_level = depth
  for _, child in ipairs(loop.children) do
    self:calculate_nesting_level_rec(child, depth + 1)
    loop:set_nesting_level(math.max(loop.nesting_level, 1 + child.nesting_level))
  end
end

function LoopStructureGraph:num_loops()
  return #self.loops
end

local UnionFindNode = {}
UnionFindNode.__index = UnionFindNode

function UnionFindNode.new()
  return setmetatable({parent = nil, bb = nil, loop = nil, dfs_number = 0}, UnionFindNode)
end

function UnionFindNode:init_node(bb, dfs_number)
  self.parent = self
  self.bb = bb
  self.dfs_number = dfs_number
  self.loop = nil
end

function UnionFindNode:find_set()
  local path = {}
  local node = self
  while node ~= node.parent do
    if node.parent ~= node.parent.parent then
      table.insert(path, node)
    end
    node = node.parent
  end
  for _, n in ipairs(path) do
    n.parent = node.parent
  end
  return node
end

function UnionFindNode:union(other)
  self.parent = other
end

local HavlakLoopFinder = {}
HavlakLoopFinder.__index = HavlakLoopFinder

function HavlakLoopFinder.new(cfg, lsg)
  return setmetatable({cfg = cfg, lsg = lsg, non_back_preds = {}, back_preds = {},
                       number = {}, max_size = 0, header = {}, type = {}, last = {},
                       nodes = {}}, HavlakLoopFinder)
end

function HavlakLoopFinder:is_ancestor(w, v)
  return w <= v and v <= self.last[w]
end

function HavlakLoopFinder:do_dfs(current_node, current)
  self.nodes[current]:init_node(current_node, current)
  self.number[current_node] = current
  local last_id = current
  for _, target in ipairs(current_node.out_edges) do
    if self.number[target] == UNVISITED then
      last_id = self:do_dfs(target, last_id + 1)
    end
  end
  self.last[self.number[current_node]] = last_id
  return last_id
end

function HavlakLoopFinder:init_all_nodes()
  for _, bb in ipairs(self.cfg.blocks) do
    self.number[bb] = UNVISITED
  end
  self:do_dfs(self.cfg.start_node, 0)
end

function HavlakLoopFinder:identify_edges(size)
  for w = 0, size - 1 do
    self.header[w] = 0
    self.type[w] = BB_NONHEADER
    local node_w = self.nodes[w].bb
    if node_w == nil then
      self.type[w] = BB_DEAD
    elseif node_w:num_pred() > 0 then
      for _, node_v in ipairs(node_w.in_edges) do
        local v = self.number[node_v]
        if v ~= UNVISITED then
          if self:is_ancestor(w, v) then
            table.insert(self.back_preds[w], v)
          else
            local preds = self.non_back_preds[w]
            if not preds.has[v] then
              preds.has[v] = true
              table.insert(preds, v)
            end
          end
        end
      end
    end
  end
end

function HavlakLoopFinder:find_loops()
  if self.cfg.start_node == nil then
    return
  end
  local size = self.cfg:num_nodes()
  for i = 0, size - 1 do
    self.non_back_preds[i] = {has = {}}
    self.back_preds[i] = {}
    self.nodes[i] = UnionFindNode.new()
  end
  self:init_all_nodes()
  self:identify_edges(size)
  self.header[0] = 0
  for w = size - 1, 0, -1 do
    local node_pool = {}
    local node_w = self.nodes[w].bb
    if node_w ~= nil then
      self:step_d(w, node_pool)
      local work_list = {}
      for i, node in ipairs(node_pool) do
        work_list[i] = node
      end
      if #node_pool ~= 0 then
        self.type[w] = BB_REDUCIBLE
      end
      while #work_list > 0 do
        local x = table.remove(work_list, 1)
        local non_back = self.non_back_preds[x.dfs_number]
        if #non_back > MAXNONBACKPREDS then
          return
        end
        self:step_e_process_non_back_preds(w, node_pool, work_list, x)
      end
      if #node_pool > 0 or self.type[w] == BB_SELF then
        local loop = self.lsg:create_new_loop(node_w, self.type[w] ~= BB_IRREDUCIBLE)
        self:set_loop_attributes(w, node_pool, loop)
      end
    end
  end
end

function HavlakLoopFinder:step_d(w, node_pool)
  for _, v in ipairs(self.back_preds[w]) do
    if v ~= w then
      table.insert(node_pool, self.nodes[v]:find_set())
    else
      self.type[w] = BB_SELF
    end
  end
end

local function contains(list, item)
  for _, x in ipairs(list) do
    if x == item then
      return true
    end
  end
  return false
end

function HavlakLoopFinder:step_e_process_non_back_preds(w, node_pool, work_list, x)
  for _, v in ipairs(self.non_back_preds[x.dfs_number]) do
    local ydash = self.nodes[v]:find_set()
    if not self:is_ancestor(w, ydash.dfs_number) then
      self.type[w] = BB_IRREDUCIBLE
      local preds = self.non_back_preds[w]
      if not preds.has[ydash.dfs_number] then
        preds.has[ydash.dfs_number] = true
        table.insert(preds, ydash.dfs_number)
      end
    elseif ydash.dfs_number ~= w and not contains(node_pool, ydash) then
      table.insert(work_list, ydash)
      table.insert(node_pool, ydash)
    end
  end
end

function HavlakLoopFinder:set_loop_attributes(w, node_pool, loop)
  self.nodes[w].loop = loop
  for _, node in ipairs(node_pool) do
    self.header[node.dfs_number] = w
    node:union(self.nodes[w])
    if node.loop ~= nil then
      node.loop:set_parent(loop)
    else
      loop:add_node(node.bb)
    end
  end
end

local LoopTester = {}
LoopTester.__index = LoopTester

function LoopTester.new()
  return setmetatable({cfg = ControlFlowGraph.new(), lsg = LoopStructureGraph.new()}, LoopTester)
end

function LoopTester:build_connect(from, to)
  self.cfg:add_edge(from, to)
end

function LoopTester:build_straight(start, n)
  for i = 0, n - 1 do
    self:build_connect(start + i, start + i + 1)
  end
  return start + n
end

function LoopTester:build_diamond(start)
  self:build_connect(start, start + 1)
  self:build_connect(start, start + 2)
  self:build_connect(start + 1, start + 3)
  self:build_connect(start + 2, start + 3)
  return start + 3
end

function LoopTester:build_base_loop(from)
  local header = self:build_straight(from, 1)
  local diamond1 = self:build_diamond(header)
  local d11 = self:build_straight(diamond1, 1)
  local diamond2 = self:build_diamond(d11)
  local footer = self:build_straight(diamond2, 1)
  self:build_connect(diamond2, d11)
  self:build_connect(diamond1, header)
  self:build_connect(footer, from)
  return self:build_straight(footer, 1)
end

function LoopTester:find_loops(lsg)
  HavlakLoopFinder.new(self.cfg, lsg):find_loops()
  lsg:calculate_nesting_level()
  return lsg
end

function LoopTester:run(par_loops, ppar_loops, pppar_loops, iterations)
  self.cfg:create_node(0)
  self:build_base_loop(0)
  self.cfg:create_node(1)
  self:build_connect(0, 2)
  local n = 2
  for _ = 1, par_loops do
    self.cfg:create_node(n + 1)
    self:build_connect(2, n + 1)
    n = n + 1
    for _ = 1, ppar_loops do
      local top = n
      n = self:build_straight(n, 1)
      for _ = 1, pppar_loops do
        n = self:build_base_loop(n)
      end
      local bottom = self:build_straight(n, 1)
      self:build_connect(n, top)
      n = bottom
    end
    self:build_connect(n, 1)
  end
  self:find_loops(self.lsg)
  local depth = 0
  for _ = 1, iterations do
    local lsg = self:find_loops(LoopStructureGraph.new())
    for _, loop in ipairs(lsg.loops) do
      depth = depth + loop.depth_level + loop.nesting_level
    end
  end
  return self.lsg:num_loops(), self.cfg:num_nodes(), depth
end

local loops, nodes, depth = LoopTester.new():run(6, 6, 5, 15)
print(string.format("havlak: loops = %d, nodes = %d, depth = %d", loops, nodes, depth))
