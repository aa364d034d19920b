// Error and Result<T>: how code below the API layer reports failure.
//
// Internal code never returns a bare cl_int and never throws across a layer:
// it returns Result<T>, whose error carries the OpenCL error code the
// specification names for the condition plus a sentence saying why. The API
// layer turns an Error into the cl_int (and sends the sentence to the
// context's notify callback) in exactly one place.
#pragma once

#include <CL/cl.h>

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace weft::rt {

struct Error {
  cl_int Code = CL_SUCCESS;
  std::string Why;
};

inline Error makeError(cl_int Code, std::string Why) { return Error{Code, std::move(Why)}; }

template <typename T> class [[nodiscard]] Result {
public:
  Result(T Value) : Storage(std::in_place_index<0>, std::move(Value)) {}
  Result(Error E) : Storage(std::in_place_index<1>, std::move(E)) {}

  explicit operator bool() const { return Storage.index() == 0; }
  T &operator*() { return value(); }
  T *operator->() { return &value(); }
  T &value() {
    assert(*this && "value() of a failed Result");
    return std::get<0>(Storage);
  }
  const Error &error() const {
    assert(!*this && "error() of a successful Result");
    return std::get<1>(Storage);
  }
  T take() { return std::move(value()); }

private:
  std::variant<T, Error> Storage;
};

/// Result of an operation with no value: success, or an Error.
template <> class [[nodiscard]] Result<void> {
public:
  Result() = default;
  Result(Error E) : Err(std::move(E)), Failed(true) {}
  explicit operator bool() const { return !Failed; }
  const Error &error() const { return Err; }

private:
  Error Err;
  bool Failed = false;
};

using Status = Result<void>;

} // namespace weft::rt
