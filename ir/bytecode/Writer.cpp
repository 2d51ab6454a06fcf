// Writer.cpp - encodes a module as bytecode: interns strings, types and constants while
// encoding kernels, then emits the sections in order, stamped with the lowest version that has
// every op the module uses.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "ir/bytecode/Bytecode.h"
#include "ir/bytecode/Format.h"
#include "ir/bytecode/Varint.h"

namespace tilevm::ir {

namespace {

using bc::ByteWriter;

class Writer {
 public:
  explicit Writer(const Module& m, const WriteOptions& o) : m_(m), opts_(o) {}

  std::vector<uint8_t> run() {
    ByteWriter kernels;
    kernels.varU(m_.kernels.size());
    for (const auto& k : m_.kernels) writeKernel(kernels, *k);

    ByteWriter out;
    out.raw(kBytecodeMagic, sizeof kBytecodeMagic);
    out.u8(kBytecodeMajor);
    out.u8(minor_);  // the lowest version that has every op of the module (ops.def `since`)
    ByteWriter strings;
    strings.varU(strings_.size());
    for (const auto& s : stringList_) strings.str(s);
    section(out, SectionId::Strings, strings);
    ByteWriter types;
    types.varU(typeList_.size());
    for (const auto& t : typeList_) types.raw(t.data(), t.size());
    section(out, SectionId::Types, types);
    ByteWriter consts;
    consts.varU(constList_.size());
    for (const auto& c : constList_) consts.raw(c.data(), c.size());
    section(out, SectionId::Constants, consts);
    section(out, SectionId::Kernels, kernels);
    if (opts_.locations) {
      ByteWriter locations;
      locations.varU(numLocs_);
      locations.raw(locs_.bytes.data(), locs_.bytes.size());
      section(out, SectionId::Locations, locations);
    }
    return std::move(out.bytes);
  }

 private:
  uint8_t minor_ = 0;  // the highest `since` of the ops and element kinds written so far
  static void section(ByteWriter& out, SectionId id, const ByteWriter& payload) {
    out.u8(static_cast<uint8_t>(id));
    out.varU(payload.bytes.size());
    out.raw(payload.bytes.data(), payload.bytes.size());
  }

  uint64_t str(const std::string& s) {
    auto [it, inserted] = strings_.emplace(s, strings_.size());
    if (inserted) stringList_.push_back(s);
    return it->second;
  }

  uint64_t type(const Type& t) {
    ByteWriter w;
    w.u8(bc::kindCode(t.elem().kind));
    if (t.isPtr()) w.u8(bc::kindCode(t.elem().pointee));
    minor_ = std::max({minor_, bc::kindSince(t.elem().kind), t.isPtr() ? bc::kindSince(t.elem().pointee) : uint8_t(0)});
    w.u8(static_cast<uint8_t>(t.rank()));
    for (int64_t d : t.shape()) w.varU(static_cast<uint64_t>(d));
    return intern(types_, typeList_, std::move(w.bytes));
  }

  uint64_t constant(const AttrValue& v) {
    ByteWriter w;
    if (const int64_t* i = std::get_if<int64_t>(&v)) {
      w.u8(uint8_t(bc::ConstTag::Int));
      w.varS(*i);
    } else if (const double* d = std::get_if<double>(&v)) {
      w.u8(uint8_t(bc::ConstTag::Float));
      w.f64(*d);
    } else if (const std::string* s = std::get_if<std::string>(&v)) {
      w.u8(uint8_t(bc::ConstTag::String));
      w.varU(str(*s));
    } else {
      const auto& list = std::get<std::vector<int64_t>>(v);
      w.u8(uint8_t(bc::ConstTag::IntList));
      w.varU(list.size());
      for (int64_t x : list) w.varS(x);
    }
    return intern(consts_, constList_, std::move(w.bytes));
  }

  // Interns an encoded entry: identical encodings share one index.
  static uint64_t intern(std::map<std::vector<uint8_t>, uint64_t>& index, std::vector<std::vector<uint8_t>>& list,
                         std::vector<uint8_t> enc) {
    auto [it, inserted] = index.emplace(enc, list.size());
    if (inserted) list.push_back(std::move(enc));
    return it->second;
  }

  void loc(const Location& l) {
    // file: string index + 1 (0 = unknown); line: delta from the previous location; col.
    if (!opts_.locations) return;  // nor intern the file names: nothing would refer to them
    ++numLocs_;
    if (l.line == 0) {
      locs_.varU(0);
      return;
    }
    locs_.varU(str(l.file < m_.files.size() ? m_.files[l.file] : std::string()) + 1);
    locs_.varS(int64_t(l.line) - int64_t(prevLine_));
    locs_.varU(l.col);
    prevLine_ = l.line;
  }

  void define(const Value* v) { ids_[v] = nextId_++; }

  void writeKernel(ByteWriter& w, const Kernel& k) {
    ids_.clear();
    nextId_ = 0;
    w.varU(str(k.name));
    w.varU(k.params().size());
    for (size_t i = 0; i < k.params().size(); ++i) {
      w.varU(str(k.paramNames[i]));
      w.varU(type(k.params()[i]->type));
      define(k.params()[i].get());
    }
    loc(k.loc);
    writeBlock(w, k.body.block);
  }

  void writeBlock(ByteWriter& w, const Block& b) {
    w.varU(b.ops.size());
    for (const auto& op : b.ops) writeOp(w, *op);
  }

  void writeOp(ByteWriter& w, const Op& op) {
    const OpInfo& info = opInfo(op.code);
    minor_ = std::max(minor_, info.since);
    loc(op.loc);
    w.u8(info.bytecode);
    if (info.minOperands != info.maxOperands) w.varU(op.operands.size());
    for (const Value* v : op.operands) w.varU(nextId_ - 1 - ids_.at(v));  // 0 = the latest value
    if (info.numResults < 0) w.varU(op.results.size());
    for (const auto& r : op.results) w.varU(type(r->type));
    w.varU(op.attrs.size());
    for (const auto& a : op.attrs) {
      w.varU(str(a.name));
      w.varU(constant(a.value));
    }
    for (const auto& r : op.regions) {
      w.varU(r->block.args.size());
      for (const auto& a : r->block.args) {
        w.varU(type(a->type));
        define(a.get());
      }
      writeBlock(w, r->block);
    }
    for (const auto& r : op.results) define(r.get());
  }

  const Module& m_;
  const WriteOptions& opts_;
  std::unordered_map<std::string, uint64_t> strings_;
  std::vector<std::string> stringList_;
  std::map<std::vector<uint8_t>, uint64_t> types_, consts_;
  std::vector<std::vector<uint8_t>> typeList_, constList_;
  std::unordered_map<const Value*, uint64_t> ids_;
  uint64_t nextId_ = 0;
  ByteWriter locs_;
  uint32_t prevLine_ = 0;
  uint64_t numLocs_ = 0;
};

}  // namespace

std::vector<uint8_t> write(const Module& m, const WriteOptions& opts) { return Writer(m, opts).run(); }

}  // namespace tilevm::ir
