// Overloaded{f, g, ...}: one callable from several lambdas, for std::visit over a variant.
#pragma once

namespace assay::core {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace assay::core
