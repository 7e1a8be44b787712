// Status: constructors that insist on a message, and its words (core/status.h).
#include "fleetsim/core/status.h"

#include <ostream>
#include <utility>

#include "fleetsim/core/check.h"

namespace fleetsim {

Status::Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {
  FLEETSIM_CHECK(code_ != StatusCode::kOk, "a failed Status needs a failure code");
  FLEETSIM_CHECK(!message_.empty(), "a failed Status needs a message");
}

Status Status::InvalidInput(std::string message) {
  return Status(StatusCode::kInvalidInput, std::move(message));
}

Status Status::IoError(std::string message) {
  return Status(StatusCode::kIoError, std::move(message));
}

Status Status::Refused(std::string message) {
  return Status(StatusCode::kRefused, std::move(message));
}

Status Status::IllegalDecision(std::string message) {
  return Status(StatusCode::kIllegalDecision, std::move(message));
}

Status Status::AlreadyExists(std::string message) {
  return Status(StatusCode::kAlreadyExists, std::move(message));
}

Status Status::Within(std::string_view context) const {
  if (ok()) {
    return *this;
  }
  return Status(code_, std::string(context) + ": " + message_);
}

std::string Status::ToString() const {
  if (ok()) {
    return "OK";
  }
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

std::ostream& operator<<(std::ostream& out, const Status& status) {
  return out << status.ToString();
}

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidInput:
      return "invalid input";
    case StatusCode::kIoError:
      return "I/O error";
    case StatusCode::kRefused:
      return "refused";
    case StatusCode::kIllegalDecision:
      return "illegal decision";
    case StatusCode::kAlreadyExists:
      return "already exists";
  }
  return "unknown";
}

}  // namespace fleetsim
