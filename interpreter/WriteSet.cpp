// WriteSet.cpp - pointer origins: each value's set of parameters (a bit mask; kUnknown when it
// could point anywhere), joined over loop-carried values and branch results until nothing moves;
// then which parameters stores reach, and the smallest access size reaching each one.
#include "interpreter/WriteSet.h"

#include <algorithm>
#include <unordered_map>

#include "interpreter/Numeric.h"

namespace tilevm::interp {

using ir::Opcode;

namespace {

constexpr uint64_t kUnknown = ~uint64_t(0);

class Origins {
 public:
  explicit Origins(const ir::Kernel& k) {
    auto params = k.params();
    for (size_t i = 0; i < params.size(); ++i) of_[params[i].get()] = i < 63 ? uint64_t(1) << i : kUnknown;
  }

  uint64_t get(const ir::Value* v) const {
    if (!v->type.isPtr()) return 0;
    auto it = of_.find(v);
    return it == of_.end() ? 0 : it->second;
  }

  // Joins `bits` into v's set; notes a change.
  void join(const ir::Value* v, uint64_t bits) {
    if (!v->type.isPtr()) return;
    uint64_t& cur = of_[v];
    if ((cur | bits) != cur) {
      cur |= bits;
      changed_ = true;
    }
  }

  // One pass over a block; repeated until no set grows.
  void pass(const ir::Block& b) {
    for (const auto& opPtr : b.ops) {
      const ir::Op& op = *opPtr;
      for (const auto& r : op.regions) pass(r->block);
      switch (op.code) {
        case Opcode::Splat: case Opcode::Broadcast: case Opcode::ExpandDims: case Opcode::Reshape: case Opcode::Permute:
        case Opcode::Flip:
        case Opcode::AddPtr: case Opcode::Bitcast: case Opcode::Split:
          for (const auto& res : op.results) join(res.get(), get(op.operands[0]));
          break;
        case Opcode::Select:
          join(op.result(), get(op.operands[1]) | get(op.operands[2]));
          break;
        case Opcode::Cat: case Opcode::Join:
          join(op.result(), get(op.operands[0]) | get(op.operands[1]));
          break;
        case Opcode::For: {
          // Carried value k: its initial value (operand 3 + k) and what the body yields.
          const ir::Block& body = op.regions[0]->block;
          const ir::Op* y = body.terminator();
          for (size_t k = 0; k < op.results.size(); ++k) {
            uint64_t bits = get(op.operands[3 + k]) | get(y->operands[k]);
            join(body.args[k + 1].get(), bits);
            join(op.result(unsigned(k)), bits);
          }
          break;
        }
        case Opcode::If:
          for (size_t k = 0; k < op.results.size(); ++k)
            for (const auto& r : op.regions) join(op.result(unsigned(k)), get(r->block.terminator()->operands[k]));
          break;
        case Opcode::While: {
          const ir::Block& before = op.regions[0]->block;
          const ir::Block& after = op.regions[1]->block;
          const ir::Op* cond = before.terminator();
          const ir::Op* y = after.terminator();
          for (size_t k = 0; k < before.args.size(); ++k) join(before.args[k].get(), get(op.operands[k]) | get(y->operands[k]));
          for (size_t k = 0; k + 1 < cond->operands.size(); ++k) {
            join(after.args[k].get(), get(cond->operands[k + 1]));
            join(op.result(unsigned(k)), get(cond->operands[k + 1]));
          }
          break;
        }
        default:
          // Any other op making a pointer (a load of pointers, int_to_ptr, ...): anywhere.
          for (const auto& res : op.results) join(res.get(), kUnknown);
          for (const auto& r : op.regions)
            for (const auto& a : r->block.args) join(a.get(), kUnknown);
          break;
      }
    }
  }

  bool changed_ = false;

 private:
  std::unordered_map<const ir::Value*, uint64_t> of_;
};

}  // namespace

std::vector<unsigned> accessBytes(const ir::Kernel& k) {
  Origins o(k);
  do {
    o.changed_ = false;
    o.pass(k.body.block);
  } while (o.changed_);
  std::vector<unsigned> out(k.params().size(), 0);
  ir::walk(k.body.block, [&](const ir::Op& op) {
    if (op.code != Opcode::Load && op.code != Opcode::Store && op.code != Opcode::AtomicRmw && op.code != Opcode::AtomicCas)
      return;
    const unsigned bytes = storageBytes(op.operands[0]->type.elem().pointee);
    const uint64_t from = o.get(op.operands[0]);
    for (size_t i = 0; i < out.size(); ++i)
      if (from == kUnknown || (i < 63 && ((from >> i) & 1)))
        out[i] = out[i] ? std::min(out[i], bytes) : bytes;
  });
  return out;
}

std::optional<std::vector<bool>> writtenParams(const ir::Kernel& k) {
  Origins o(k);
  do {
    o.changed_ = false;
    o.pass(k.body.block);
  } while (o.changed_);
  uint64_t written = 0;
  ir::walk(k.body.block, [&](const ir::Op& op) {
    if (op.code == Opcode::Store || op.code == Opcode::AtomicRmw || op.code == Opcode::AtomicCas) written |= o.get(op.operands[0]);
  });
  if (written == kUnknown) return std::nullopt;
  std::vector<bool> out(k.params().size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = (written >> i) & 1;
  return out;
}

}  // namespace tilevm::interp
