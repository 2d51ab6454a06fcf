// native_anchors.cpp - the anchor kernels as plain C++ loops (oneTBB over rows, -O3
// -march=native -ffast-math): the native-code anchor for the interpreter benchmark on a CPU
// without torch. Same sizes and inputs' distribution as bench/interp_bench.sh; prints one line
// per kernel and writes OUT/native.json ({kernel: {"native_s": median seconds}}).
//   native_anchors OUT THREADS REPS
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace {

std::vector<float> randn(size_t n, std::mt19937_64& rng) {
  std::normal_distribution<float> nd(0, 1);
  std::vector<float> v(n);
  for (float& x : v) x = nd(rng);
  return v;
}

// Median wall time of `reps` calls after two warm-up calls.
double medianSeconds(int reps, const std::function<void()>& f) {
  f();
  f();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void vadd(const std::vector<float>& x, const std::vector<float>& y, std::vector<float>& o) {
  tbb::parallel_for(tbb::blocked_range<size_t>(0, x.size(), 1 << 14), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); ++i) o[i] = x[i] + y[i];
  });
}

void softmax(const std::vector<float>& x, std::vector<float>& o, size_t rows, size_t cols) {
  tbb::parallel_for(size_t(0), rows, [&](size_t i) {
    const float* in = &x[i * cols];
    float* out = &o[i * cols];
    float mx = -INFINITY, sum = 0;
    for (size_t j = 0; j < cols; ++j) mx = std::max(mx, in[j]);
    for (size_t j = 0; j < cols; ++j) sum += out[j] = std::exp(in[j] - mx);
    for (size_t j = 0; j < cols; ++j) out[j] /= sum;
  });
}

void matmul(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c, size_t n) {
  tbb::parallel_for(size_t(0), n, [&](size_t i) {
    float* row = &c[i * n];
    std::fill(row, row + n, 0.0f);
    for (size_t k = 0; k < n; ++k) {
      const float aik = a[i * n + k];
      const float* brow = &b[k * n];
      for (size_t j = 0; j < n; ++j) row[j] += aik * brow[j];
    }
  });
}

// softmax(q k^T * scale) v per (batch*head, query row).
void attention(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
               std::vector<float>& o, size_t bh, size_t ctx, size_t d, float scale) {
  tbb::parallel_for(size_t(0), bh * ctx, [&](size_t row) {
    const size_t h = row / ctx;
    const float* qi = &q[row * d];
    std::vector<float> s(ctx);
    float mx = -INFINITY, sum = 0;
    for (size_t j = 0; j < ctx; ++j) {
      const float* kj = &k[(h * ctx + j) * d];
      float dotp = 0;
      for (size_t t = 0; t < d; ++t) dotp += qi[t] * kj[t];
      s[j] = dotp * scale;
      mx = std::max(mx, s[j]);
    }
    for (size_t j = 0; j < ctx; ++j) sum += s[j] = std::exp(s[j] - mx);
    float* oi = &o[row * d];
    std::fill(oi, oi + d, 0.0f);
    for (size_t j = 0; j < ctx; ++j) {
      const float* vj = &v[(h * ctx + j) * d];
      const float p = s[j] / sum;
      for (size_t t = 0; t < d; ++t) oi[t] += p * vj[t];
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: native_anchors OUT THREADS REPS\n");
    return 2;
  }
  const std::string out = argv[1];
  const int threads = std::atoi(argv[2]), reps = std::max(1, std::atoi(argv[3]));
  std::mt19937_64 rng(0);
  tbb::task_arena arena(std::max(1, threads));
  std::vector<std::pair<std::string, double>> results;
  arena.execute([&] {
    const size_t n = size_t(1) << 20;
    auto x = randn(n, rng), y = randn(n, rng);
    std::vector<float> o(n);
    results.emplace_back("vadd_f32_2^20_B1024", medianSeconds(reps, [&] { vadd(x, y, o); }));
    auto s = randn(1024 * 1024, rng);
    std::vector<float> so(s.size());
    results.emplace_back("softmax_f32_1024x1024", medianSeconds(reps, [&] { softmax(s, so, 1024, 1024); }));
    auto a = randn(512 * 512, rng), b = randn(512 * 512, rng);
    std::vector<float> c(a.size());
    results.emplace_back("matmul_f32_512_B64x64x32", medianSeconds(reps, [&] { matmul(a, b, c, 512); }));
    auto q = randn(4 * 512 * 64, rng), k = randn(q.size(), rng), v = randn(q.size(), rng);
    std::vector<float> ao(q.size());
    results.emplace_back("attn_f32_bh4_n512_d64", medianSeconds(reps, [&] { attention(q, k, v, ao, 4, 512, 64, 0.125f); }));
  });
  std::ofstream json(out + "/native.json");
  json << "{\n";
  for (size_t i = 0; i < results.size(); ++i) {
    std::printf("%s: native %.4f ms\n", results[i].first.c_str(), results[i].second * 1e3);
    json << "  \"" << results[i].first << "\": {\"native_s\": " << results[i].second << "}" << (i + 1 < results.size() ? "," : "") << "\n";
  }
  json << "}\n";
  return json ? 0 : 1;
}
