// Modules.cpp - module search and loading: package roots found by walking up through
// __init__.py files, dotted names mapped to `a/b/c.py` or `a/b/c/__init__.py` (or a namespace
// directory), each file parsed once.
#include "frontend/Modules.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/PyParser.h"

namespace tilevm::frontend {

namespace fs = std::filesystem;

namespace {

/// The largest Python file read (a generated kernel file of a few MB is plausible; more is not).
constexpr std::uintmax_t kMaxSourceBytes = 16u << 20;

std::vector<std::string> splitDots(const std::string& dotted) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= dotted.size()) {
    size_t dot = dotted.find('.', start);
    parts.push_back(dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string normalized(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return (ec ? p.lexically_normal() : c).string();
}

}  // namespace

ModuleLoader::ModuleLoader(std::vector<std::string> includeDirs) : includeDirs_(std::move(includeDirs)) {
  searchPath_ = includeDirs_;
}

Result<const PyModule*> ModuleLoader::loadMain(std::string_view text, const std::string& fileName) {
  if (auto it = byPath_.find(normalized(fs::path(fileName))); it != byPath_.end() && mainLoaded_)
    return static_cast<const PyModule*>(it->second.get());  // asked again in the same load
  texts_[fileName] = std::string(text);
  auto parsed = parsePython(text, fileName);
  if (!parsed) return parsed.error();
  auto m = std::make_unique<PyModule>(std::move(*parsed));
  fs::path file(fileName);
  fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  m->dir = dir.string();
  m->isPackage = file.filename() == "__init__.py";
  m->adoptFunctions();
  // Python puts a script's directory on sys.path; a file inside a package is usually imported
  // from the directory above its top package, so that directory joins the path too.
  std::error_code ec;
  fs::path root = dir;
  while (fs::exists(root / "__init__.py", ec) && root.has_parent_path() && root.parent_path() != root)
    root = root.parent_path();
  for (const fs::path& p : {dir, root})
    if (std::find(searchPath_.begin(), searchPath_.end(), p.string()) == searchPath_.end()) searchPath_.push_back(p.string());
  std::string key = normalized(file);
  const PyModule* raw = m.get();
  byPath_[key] = std::move(m);
  mainLoaded_ = true;
  return raw;
}

Result<const PyModule*> ModuleLoader::loadPath(const std::string& path, bool isDirectory) {
  std::string key = normalized(path);
  if (auto it = byPath_.find(key); it != byPath_.end()) return static_cast<const PyModule*>(it->second.get());
  std::unique_ptr<PyModule> m;
  if (isDirectory) {  // a namespace package: nothing but submodules
    m = std::make_unique<PyModule>();
    m->fileName = path;
    m->dir = path;
    m->isPackage = true;
  } else {
    std::error_code ec;
    auto size = fs::file_size(path, ec);
    if (ec) return Diagnostic{path, 0, 0, "cannot read: " + ec.message()};
    if (size > kMaxSourceBytes)
      return Diagnostic{path, 0, 0, "file is larger than " + std::to_string(kMaxSourceBytes >> 20) + " MiB"};
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    if (!in && !in.eof()) return Diagnostic{path, 0, 0, "cannot read the file"};
    std::string text = ss.str();
    texts_[path] = text;  // kept even when it does not parse: the error shows its line
    auto parsed = parsePython(text, path);
    if (!parsed) return parsed.error();
    m = std::make_unique<PyModule>(std::move(*parsed));
    fs::path p(path);
    m->dir = p.parent_path().string();
    m->isPackage = p.filename() == "__init__.py";
  }
  m->adoptFunctions();
  const PyModule* raw = m.get();
  byPath_[key] = std::move(m);
  return raw;
}

Result<const PyModule*> ModuleLoader::findIn(const std::string& dir, const std::string& dotted) {
  fs::path p(dir);
  if (!dotted.empty())
    for (const std::string& part : splitDots(dotted)) p /= part;
  std::error_code ec;
  fs::path file = p;
  file += ".py";
  if (!dotted.empty() && fs::is_regular_file(file, ec)) return loadPath(file.string(), false);
  if (fs::is_regular_file(p / "__init__.py", ec)) return loadPath((p / "__init__.py").string(), false);
  if (fs::is_directory(p, ec)) return loadPath(p.string(), true);
  return static_cast<const PyModule*>(nullptr);
}

Result<const PyModule*> ModuleLoader::import(const PyModule& from, int level, const std::string& dotted) {
  if (level == 0) {
    for (const std::string& dir : searchPath_) {
      auto r = findIn(dir, dotted);
      if (!r || *r) return r;
    }
    return static_cast<const PyModule*>(nullptr);
  }
  // Relative: one dot is the module's own package (its directory), each further dot one up.
  fs::path base(from.dir.empty() ? "." : from.dir);
  for (int i = 1; i < level; ++i) base = base.parent_path();
  return findIn(base.string(), dotted);
}

Result<const PyModule*> ModuleLoader::submodule(const PyModule& pkg, const std::string& name) {
  if (!pkg.isPackage) return static_cast<const PyModule*>(nullptr);
  return findIn(pkg.dir, name);
}

}  // namespace tilevm::frontend
