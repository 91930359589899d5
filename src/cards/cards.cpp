// The card types' helpers (cards/card_spec.hpp) and named field access (cards/fields.hpp).
#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "cards/card_spec.hpp"
#include "cards/fields.hpp"

namespace parcae::io {

// ---------------------------------------------------------------------------------------------
// FieldSpec / CardSpec helpers

FieldSpec FieldSpec::w(int new_width) const {
  FieldSpec f = *this;
  f.width = new_width;
  return f;
}

FieldSpec FieldSpec::req() const {
  FieldSpec f = *this;
  f.required = true;
  return f;
}

int FieldSpec::width_in(LineFormat format) const {
  if (width == 0) return 0;
  if (format == LineFormat::Long) return 20;
  if (format == LineFormat::I10) return std::max(width, 10);
  return width;
}

std::string FieldSpec::default_text() const {
  if (required) return "required";
  if (!def.empty()) return std::string(def);
  if (type == FieldType::Int) return "0";
  if (type == FieldType::Real) return "0.0";
  return "";
}

bool CardSpec::active(const std::vector<std::string>& options) const {
  // "ID|TITLE": any of the options
  std::string_view rest = when;
  if (rest.empty()) return true;
  while (!rest.empty()) {
    const std::size_t bar = rest.find('|');
    const std::string_view one = rest.substr(0, bar);
    if (std::find(options.begin(), options.end(), one) != options.end()) return true;
    rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
  }
  return false;
}

bool CardSpec::may_be_omitted() const {
  return optional || (!required && std::none_of(fields.begin(), fields.end(),
                                                [](const FieldSpec& f) { return f.required; }));
}

std::string CardSpec::field_list() const {
  std::string out;
  for (const FieldSpec& f : fields) out += (out.empty() ? "" : " ") + std::string(f.name);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fields, Block

const Value* Fields::find(std::string_view name) const {
  // from the hint on, then from the start (the same field as a plain scan: names are unique
  // within one Fields)
  const std::size_t n = values_.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t j = hint_ + k;
    if (j >= n) j -= n;
    const std::string_view have = values_[j].spec->name;
    if (have.size() == name.size() && (name.empty() || have.front() == name.front()) &&
        have == name) {
      hint_ = j + 1 < n ? j + 1 : 0;
      return &values_[j];
    }
  }
  return nullptr;
}

const Value& Fields::get(std::string_view name) const {
  if (const Value* v = find(name)) return *v;
  throw std::logic_error(fmt::format("{}: no field named {}", origin_->card, name));
}

int Fields::integer(std::string_view name) const {
  const Value& v = get(name);
  if (v.i < std::numeric_limits<int>::min() || v.i > std::numeric_limits<int>::max())
    throw InputError(loc(name),
                     fmt::format("field {}: {} does not fit in a 32-bit integer", name, v.i));
  return static_cast<int>(v.i);
}

SourceLoc Fields::loc(std::string_view name) const {
  return {origin_->file, get(name).line, origin_->card};
}

SourceLoc Fields::loc() const {
  return {origin_->file, line(), origin_->card};
}

bool Block::has(std::string_view option) const {
  return std::find(options.begin(), options.end(), option) != options.end();
}

namespace card_fields {

std::vector<FieldSpec> ints(std::initializer_list<std::string_view> names, int width) {
  std::vector<FieldSpec> out;
  for (auto n : names) out.push_back(I(n).w(width));
  return out;
}
std::vector<FieldSpec> reals(std::initializer_list<std::string_view> names, int width) {
  std::vector<FieldSpec> out;
  for (auto n : names) out.push_back(R(n).w(width));
  return out;
}
std::vector<FieldSpec> join(std::vector<FieldSpec> a, const std::vector<FieldSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

CardSpec title_card() {
  return {"Title (_TITLE)", {Line("TITLE")}, "TITLE"};
}
CardSpec id_card(std::string_view id_name) {
  return {"ID (_ID)", {I(id_name), Line("HEADING")}, "ID"};
}

} // namespace card_fields

} // namespace parcae::io
