// TensorMaps.cpp - the tensor maps of a launch (see TensorMaps.h). The TMA reads the box's inner
// dim first; its shared layout is the code generator's swizzle (CU_TENSOR_MAP_SWIZZLE_nB), and
// what lies outside the array reads as zero or, for padding="nan", NaN.
#include "runtime/TensorMaps.h"

namespace tilevm::rt {

namespace {

// CUtensorMapDataType for the IR's element type, or -1.
int dataType(const std::string& t) {
  if (t == "u8") return 0;    // CU_TENSOR_MAP_DATA_TYPE_UINT8
  if (t == "f16") return 6;   // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  if (t == "f32") return 7;   // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  if (t == "bf16") return 9;  // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
  return -1;
}

}  // namespace

std::string encodeTensorMaps(EncodeTiled encode, const std::vector<codegen::TensorMap>& maps, const std::vector<uint64_t>& params,
                             const std::vector<std::string>& names, std::vector<TensorMapBytes>& out) {
  out.assign(maps.size(), TensorMapBytes{});
  for (size_t i = 0; i < maps.size(); ++i) {
    const codegen::TensorMap& m = maps[i];
    const size_t rank = m.shape.size();
    auto name = [&](unsigned p) { return p < names.size() ? "'" + names[p] + "'" : "parameter " + std::to_string(p); };
    auto value = [&](unsigned p) { return p < params.size() ? params[p] : 0; };
    if (rank < 1 || rank > 5 || m.stride.size() != rank || m.box.size() != rank || dataType(m.dtype) < 0 || codegen::tensorMapSwizzleMode(m.swizzleBytes) < 0 ||
        (m.nanFill && m.dtype == "u8"))
      return "internal error: a malformed tensor map";
    if (value(m.base) % 16 != 0) return "tensor descriptor base " + name(m.base) + " is not 16-byte aligned, as TMA requires";
    // Innermost dim first, as the driver takes them; strides of the outer dims in bytes.
    uint64_t dims[5], strides[4];
    uint32_t box[5], ones[5] = {1, 1, 1, 1, 1};
    for (size_t d = 0; d < rank; ++d) {
      const size_t from = rank - 1 - d;
      const int64_t size = int64_t(value(m.shape[from]));
      if (size < 1 || size > (int64_t(1) << 32))
        return "tensor descriptor size " + name(m.shape[from]) + " = " + std::to_string(size) + " is outside TMA's 1 to 2^32";
      dims[d] = uint64_t(size);
      box[d] = m.box[from];
      if (d == 0) continue;
      const int64_t stride = int64_t(value(m.stride[from]));
      const uint64_t bytes = uint64_t(stride) * codegen::tensorMapElementBytes(m.dtype);
      if (stride < 1 || bytes % 16 != 0 || bytes >= (uint64_t(1) << 40))
        return "tensor descriptor stride " + name(m.stride[from]) + " = " + std::to_string(stride) +
               " is not a positive multiple of 16 bytes below 2^40, as TMA requires";
      strides[d - 1] = bytes;
    }
    if (value(m.stride[rank - 1]) != 1) return "tensor descriptor stride " + name(m.stride[rank - 1]) + " is not 1, as TMA requires";
    const int oobNan = m.nanFill ? 1 : 0;  // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
    const int l2Promotion256 = 3;          // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
    if (int r = encode(&out[i], dataType(m.dtype), uint32_t(rank), reinterpret_cast<void*>(uintptr_t(value(m.base))), dims, strides,
                       box, ones, 0, codegen::tensorMapSwizzleMode(m.swizzleBytes), l2Promotion256, oobNan);
        r != 0)
      return "cuTensorMapEncodeTiled failed for the tensor descriptor at " + name(m.base) + ": CUDA error " + std::to_string(r);
  }
  return "";
}

}  // namespace tilevm::rt
