// Reader.cpp - decodes bytecode, treating the input as hostile. The grammar of each part is
// written above the function that reads it; docs/bytecode.md is the full spec.
#include <cctype>
#include <unordered_set>

#include "ir/bytecode/ByteReader.h"
#include "ir/bytecode/Bytecode.h"
#include "ir/bytecode/Format.h"

namespace tilevm::ir {

namespace {

using bc::ByteReader;

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$')) return false;
  return true;
}

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes)
      : in_(bytes), copyBudget_(16 * bytes.size() + 65536) {}

  std::unique_ptr<Module> run() {
    m_ = std::make_unique<Module>();
    readHeader();
    int last = 0;
    while (!in_.atEnd()) {
      size_t at = in_.offset();
      uint8_t id = in_.u8("section id");
      if (id < uint8_t(SectionId::Strings) || id > uint8_t(SectionId::Locations))
        ByteReader::failAt(at, "unknown section id " + std::to_string(id));
      if (id <= last) ByteReader::failAt(at, "section " + std::to_string(id) + " is out of order or repeated");
      last = id;
      uint64_t len = in_.varU("section length");
      ByteReader sec = in_.sub(len, "section");
      switch (static_cast<SectionId>(id)) {
        case SectionId::Strings: readStrings(sec); break;
        case SectionId::Types: readTypes(sec); break;
        case SectionId::Constants: readConstants(sec); break;
        case SectionId::Kernels: readKernels(sec); break;
        case SectionId::Locations: readLocations(sec); break;
      }
      if (!sec.atEnd()) sec.fail("trailing bytes at the end of section " + std::to_string(id));
    }
    if (last < int(SectionId::Kernels)) in_.fail("missing kernels section");
    return std::move(m_);
  }

 private:
  // header := magic[8] major:u8 minor:u8
  void readHeader() {
    auto magic = in_.bytes(sizeof kBytecodeMagic, "magic");
    for (size_t i = 0; i < sizeof kBytecodeMagic; ++i)
      if (magic[i] != kBytecodeMagic[i]) ByteReader::failAt(0, "not tilevm bytecode (bad magic)");
    size_t at = in_.offset();
    uint8_t major = in_.u8("major version");
    uint8_t minor = in_.u8("minor version");
    minor_ = minor;
    if (major != kBytecodeMajor || minor > kBytecodeMinor)
      ByteReader::failAt(at, "unsupported bytecode version " + std::to_string(major) + "." + std::to_string(minor) +
                                 " (this reader supports " + std::to_string(kBytecodeMajor) + ".0 to " +
                                 std::to_string(kBytecodeMajor) + "." + std::to_string(kBytecodeMinor) + ")");
  }

  // strings := count (len bytes[len])*
  void readStrings(ByteReader& r) {
    uint64_t n = r.count("string count");
    strings_.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t len = r.count("string length");
      auto b = r.bytes(len, "string");
      strings_.emplace_back(b.begin(), b.end());
    }
  }

  // A file may use only the element kinds its stamped version defines.
  void checkKindVersion(size_t at, ScalarKind k) const {
    if (bc::kindSince(k) > minor_)
      ByteReader::failAt(at, "element kind '" + std::string(scalarName(k)) + "' needs bytecode version " +
                                 std::to_string(kBytecodeMajor) + "." + std::to_string(bc::kindSince(k)) + ", the file is " +
                                 std::to_string(kBytecodeMajor) + "." + std::to_string(minor_));
  }

  // types := count type*;  type := kind:u8 [pointee:u8 if kind = ptr] rank:u8 dim:varint*rank
  void readTypes(ByteReader& r) {
    uint64_t n = r.count("type count", 2);
    types_.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
      size_t at = r.offset();
      auto kind = bc::kindFromCode(r.u8("element kind"));
      if (!kind) ByteReader::failAt(at, "unknown element kind");
      checkKindVersion(at, *kind);
      ElemType e{*kind, ScalarKind::I32};
      if (*kind == ScalarKind::Ptr) {
        at = r.offset();
        auto p = bc::kindFromCode(r.u8("pointee kind"));
        if (!p || *p == ScalarKind::Ptr) ByteReader::failAt(at, "bad pointee kind");
        checkKindVersion(at, *p);
        e.pointee = *p;
      }
      at = r.offset();
      uint8_t rank = r.u8("rank");
      if (rank > kMaxRank) ByteReader::failAt(at, "rank " + std::to_string(rank) + " exceeds " + std::to_string(kMaxRank));
      int64_t dims[kMaxRank], numel = 1;
      for (unsigned d = 0; d < rank; ++d) {
        at = r.offset();
        uint64_t v = r.varU("dimension");
        if (v == 0) ByteReader::failAt(at, "tile dimension must be positive");
        if (v > uint64_t(kMaxTileElements) || (numel *= int64_t(v)) > kMaxTileElements)
          ByteReader::failAt(at, "tile shape exceeds " + std::to_string(kMaxTileElements) + " elements");
        dims[d] = int64_t(v);
      }
      types_.emplace_back(e, std::span<const int64_t>(dims, rank));
    }
  }

  // constants := count const*;  const := tag:u8 (svarint | f64[8] | string:varint | count svarint*)
  void readConstants(ByteReader& r) {
    uint64_t n = r.count("constant count", 2);
    consts_.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
      size_t at = r.offset();
      switch (r.u8("constant tag")) {
        case uint8_t(bc::ConstTag::Int): consts_.emplace_back(r.varS("integer")); break;
        case uint8_t(bc::ConstTag::Float): consts_.emplace_back(r.f64("float")); break;
        case uint8_t(bc::ConstTag::String): consts_.emplace_back(string(r)); break;
        case uint8_t(bc::ConstTag::IntList): {
          uint64_t k = r.count("list length");
          std::vector<int64_t> list;
          list.reserve(k);
          for (uint64_t j = 0; j < k; ++j) list.push_back(r.varS("list element"));
          consts_.emplace_back(std::move(list));
          break;
        }
        default: ByteReader::failAt(at, "unknown constant tag");
      }
    }
  }

  // Attributes copy shared constants into each op: bound the total so that a small input
  // cannot make the reader allocate without limit.
  void chargeCopy(size_t at, const AttrValue& v) {
    size_t cost = 16;
    if (const auto* s = std::get_if<std::string>(&v)) cost += s->size();
    if (const auto* l = std::get_if<std::vector<int64_t>>(&v)) cost += 8 * l->size();
    if (cost > copyBudget_) ByteReader::failAt(at, "attributes copy more data than the input size allows");
    copyBudget_ -= cost;
  }

  const std::string& string(ByteReader& r) {
    size_t at = r.offset();
    uint64_t i = r.varU("string index");
    if (i >= strings_.size()) ByteReader::failAt(at, "string index " + std::to_string(i) + " out of range");
    return strings_[i];
  }
  const std::string& identifier(ByteReader& r, const char* what) {
    size_t at = r.offset();
    const std::string& s = string(r);
    if (!isIdentifier(s)) ByteReader::failAt(at, std::string(what) + " is not an identifier");
    return s;
  }
  const Type& type(ByteReader& r) {
    size_t at = r.offset();
    uint64_t i = r.varU("type index");
    if (i >= types_.size()) ByteReader::failAt(at, "type index " + std::to_string(i) + " out of range");
    return types_[i];
  }

  // kernels := count kernel*
  // kernel  := name:str nparams:varint (name:str type)* block
  void readKernels(ByteReader& r) {
    uint64_t n = r.count("kernel count", 3);
    for (uint64_t i = 0; i < n; ++i) {
      auto k = std::make_unique<Kernel>();
      size_t at = r.offset();
      k->name = identifier(r, "kernel name");
      if (!kernelNames_.insert(k->name).second) ByteReader::failAt(at, "duplicate kernel @" + k->name);
      values_.clear();
      uint64_t np = r.count("parameter count", 2);
      std::unordered_set<std::string> params;  // (sets, not scans: linear in the module's size)
      for (uint64_t p = 0; p < np; ++p) {
        at = r.offset();
        std::string name = identifier(r, "parameter name");
        if (!params.insert(name).second) ByteReader::failAt(at, "duplicate parameter %" + name);
        k->paramNames.push_back(name);
        values_.push_back(k->body.block.addArg(type(r)));
      }
      locTargets_.push_back(&k->loc);
      readBlock(r, k->body.block, 0);
      m_->kernels.push_back(std::move(k));
    }
  }

  // block := nops:varint op*
  void readBlock(ByteReader& r, Block& b, unsigned depth) {
    if (depth > bc::kMaxRegionDepth) r.fail("regions nested deeper than " + std::to_string(bc::kMaxRegionDepth));
    uint64_t n = r.count("op count", 2);
    b.ops.reserve(n);
    for (uint64_t i = 0; i < n; ++i) readOp(r, b, depth);
  }

  // op := opcode:u8 [noperands] operand* [nresults] resulttype* nattrs (name:str const)*
  //       (nargs argtype* block) per region of the opcode
  void readOp(ByteReader& r, Block& b, unsigned depth) {
    size_t at = r.offset();
    uint8_t number = r.u8("opcode");
    auto code = opcodeFromBytecode(number);
    if (!code) ByteReader::failAt(at, "unknown opcode " + std::to_string(number));
    const OpInfo& info = opInfo(*code);
    if (info.since > minor_)  // a file may use only the ops its stamped version defines
      ByteReader::failAt(at, "op '" + std::string(info.mnemonic) + "' needs bytecode version " + std::to_string(kBytecodeMajor) +
                                 "." + std::to_string(info.since) + ", the file is " + std::to_string(kBytecodeMajor) + "." +
                                 std::to_string(minor_));
    auto op = std::make_unique<Op>(*code, Location{});
    op->parent = &b;
    locTargets_.push_back(&op->loc);

    uint64_t nops = uint64_t(info.minOperands);
    if (info.minOperands != info.maxOperands) {
      at = r.offset();
      nops = r.count("operand count");
      if (nops < uint64_t(info.minOperands) || (info.maxOperands >= 0 && nops > uint64_t(info.maxOperands)))
        ByteReader::failAt(at, "'" + std::string(info.mnemonic) + "' cannot have " + std::to_string(nops) + " operands");
    }
    for (uint64_t i = 0; i < nops; ++i) {
      at = r.offset();
      uint64_t back = r.varU("operand");
      if (back >= values_.size())
        ByteReader::failAt(at, "operand refers to value -" + std::to_string(back + 1) + " but only " +
                                   std::to_string(values_.size()) + " are defined");
      op->operands.push_back(values_[values_.size() - 1 - back]);
    }
    uint64_t nres = uint64_t(info.numResults);
    if (info.numResults < 0) nres = r.count("result count");
    std::vector<Type> resultTypes;
    resultTypes.reserve(nres);
    for (uint64_t i = 0; i < nres; ++i) resultTypes.push_back(type(r));

    uint64_t nattrs = r.count("attribute count", 2);
    for (uint64_t i = 0; i < nattrs; ++i) {
      at = r.offset();
      std::string name = identifier(r, "attribute name");
      if (op->attr(name)) ByteReader::failAt(at, "duplicate attribute '" + name + "'");
      size_t cat = r.offset();
      uint64_t ci = r.varU("constant index");
      if (ci >= consts_.size()) ByteReader::failAt(cat, "constant index " + std::to_string(ci) + " out of range");
      chargeCopy(cat, consts_[ci]);
      op->setAttr(std::move(name), consts_[ci]);
    }
    for (unsigned i = 0; i < info.numRegions; ++i) {
      auto region = std::make_unique<Region>();
      region->parentOp = op.get();
      uint64_t nargs = r.count("region argument count");
      for (uint64_t a = 0; a < nargs; ++a) values_.push_back(region->block.addArg(type(r)));
      readBlock(r, region->block, depth + 1);
      op->regions.push_back(std::move(region));
    }
    for (uint64_t i = 0; i < nres; ++i) {
      op->results.push_back(std::make_unique<Value>(resultTypes[i], op.get(), &b, static_cast<unsigned>(i)));
      values_.push_back(op->results.back().get());
    }
    b.ops.push_back(std::move(op));
  }

  // locations := count loc*  (count = kernels + ops, in reading order)
  // loc := file:varint (string index + 1, 0 = none) [line-delta:svarint col:varint if file]
  void readLocations(ByteReader& r) {
    size_t at = r.offset();
    uint64_t n = r.count("location count");
    if (n != locTargets_.size())
      ByteReader::failAt(at, "location count " + std::to_string(n) + " does not match the " +
                                 std::to_string(locTargets_.size()) + " kernels and ops");
    int64_t line = 0;
    for (Location* target : locTargets_) {
      at = r.offset();
      uint64_t f = r.varU("location file");
      if (f == 0) continue;
      if (f > strings_.size()) ByteReader::failAt(at, "location file index out of range");
      line += r.varS("line delta");
      uint64_t col = r.varUpTo(UINT32_MAX, "column");
      if (line <= 0 || line > int64_t(UINT32_MAX)) ByteReader::failAt(at, "line number out of range");
      *target = Location{m_->fileIndex(strings_[f - 1]), uint32_t(line), uint32_t(col)};
    }
  }

  ByteReader in_;
  uint8_t minor_ = 0;  // the file's stamped minor version: ops newer than it are errors
  std::unique_ptr<Module> m_;
  std::vector<std::string> strings_;
  std::vector<Type> types_;
  std::vector<AttrValue> consts_;
  std::vector<Value*> values_;
  std::unordered_set<std::string> kernelNames_;
  std::vector<Location*> locTargets_;
  size_t copyBudget_;
};

}  // namespace

Result<std::unique_ptr<Module>> read(std::span<const uint8_t> bytes, const std::string& fileName) {
  try {
    return Reader(bytes).run();
  } catch (const bc::BytecodeError& e) {
    return Diagnostic{fileName, 0, 0, "offset " + std::to_string(e.offset) + ": " + e.message};
  }
}

}  // namespace tilevm::ir
