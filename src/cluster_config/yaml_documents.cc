// Kubernetes-style objects read from YAML (libyaml's event parser, built into JSON trees) or JSON.
#include "cluster_config/yaml_documents.h"

#include <fmt/format.h>
#include <yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>

#include "fleetsim/core/diagnostics.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

// Builds JSON trees from libyaml's events: one tree per document, containers on a stack (no
// recursion, whatever the nesting). What is made is measured -- one per value and one per byte of
// scalar and key text, for what the file spells out, each copy an anchor keeps and each alias's
// expansion -- against a budget of kMaxYamlValues more than the text's length: text without
// aliases never makes more than its own length, so a file can only expand that much beyond its
// size, in values or in bytes. An alias may not nest its value deeper than kMaxJsonDepth either.
class TreeBuilder {
 public:
  TreeBuilder(const std::string& source, std::size_t text_length)
      : source_(source), budget_(kMaxYamlValues + text_length) {}

  // Takes one event; an error names its place.
  Status Take(const yaml_event_t& event) {
    const yaml_mark_t& mark = event.start_mark;
    switch (event.type) {
      case YAML_DOCUMENT_START_EVENT:
        root_.reset();
        anchors_.clear();  // an anchor belongs to its document
        return Status::Ok();
      case YAML_DOCUMENT_END_EVENT:
        docs_.push_back(root_ ? std::move(*root_) : nlohmann::json());
        return Status::Ok();
      case YAML_SCALAR_EVENT:
        return Scalar(event, mark);
      case YAML_ALIAS_EVENT:
        return Alias(Text(event.data.alias.anchor), mark);
      case YAML_MAPPING_START_EVENT:
        return Open(nlohmann::json::object(), Text(event.data.mapping_start.anchor), mark);
      case YAML_SEQUENCE_START_EVENT:
        return Open(nlohmann::json::array(), Text(event.data.sequence_start.anchor), mark);
      case YAML_MAPPING_END_EVENT:
      case YAML_SEQUENCE_END_EVENT:
        return Close(mark);
      default:
        return Status::Ok();
    }
  }

  std::vector<nlohmann::json> TakeDocuments() { return std::move(docs_); }

 private:
  // A finished value with its size and nesting (a scalar 0 levels, a container one more than its
  // deepest element).
  struct Built {
    nlohmann::json value;
    std::size_t size = 1;  // values and text bytes, as counted
    std::size_t depth = 0;
  };
  struct Frame {
    Built built;
    std::string anchor;
    std::optional<std::string> key;  // a map's key waiting for its value
  };

  static std::string Text(const yaml_char_t* text) {
    return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
  }

  Status Error(const yaml_mark_t& mark, const std::string& what) const {
    return Status::InvalidInput(
        fmt::format("{}:{}:{}: {}", source_, mark.line + 1, mark.column + 1, what));
  }

  bool AwaitsKey() const {
    return !stack_.empty() && stack_.back().built.value.is_object() && !stack_.back().key;
  }

  Status Scalar(const yaml_event_t& event, const yaml_mark_t& mark) {
    const auto& scalar = event.data.scalar;
    std::string text(reinterpret_cast<const char*>(scalar.value), scalar.length);
    if (AwaitsKey()) {
      if (Status status = Count(text.size(), mark); !status.ok()) {
        return status;
      }
      stack_.back().built.size += text.size();
      stack_.back().key = std::move(text);
      return Status::Ok();
    }
    const bool null =
        scalar.style == YAML_PLAIN_SCALAR_STYLE &&
        (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL");
    const std::size_t size = 1 + text.size();
    if (Status status = Count(size, mark); !status.ok()) {
      return status;
    }
    return Place({null ? nlohmann::json() : nlohmann::json(std::move(text)), size, 0},
                 Text(scalar.anchor), mark);
  }

  Status Alias(const std::string& name, const yaml_mark_t& mark) {
    const auto found = anchors_.find(name);
    if (found == anchors_.end()) {
      return Error(mark, fmt::format("alias '*{}' names no anchor before it", name));
    }
    if (AwaitsKey()) {
      return Error(mark, "expected a scalar map key, found an alias");
    }
    if (stack_.size() + found->second.depth > kMaxJsonDepth) {
      return Error(mark, fmt::format("nested deeper than {} levels (through alias '*{}')",
                                     kMaxJsonDepth, name));
    }
    if (Status status = Count(found->second.size, mark); !status.ok()) {
      return status;
    }
    return Place(found->second, "", mark);
  }

  Status Open(nlohmann::json container, std::string anchor, const yaml_mark_t& mark) {
    if (AwaitsKey()) {
      return Error(mark, "expected a scalar map key, found a map or a sequence");
    }
    if (stack_.size() >= kMaxJsonDepth) {
      return Error(mark, fmt::format("nested deeper than {} levels", kMaxJsonDepth));
    }
    if (Status status = Count(1, mark); !status.ok()) {
      return status;
    }
    stack_.push_back(
        {.built = {std::move(container), 1, 1}, .anchor = std::move(anchor), .key = std::nullopt});
    return Status::Ok();
  }

  Status Close(const yaml_mark_t& mark) {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    return Place(std::move(frame.built), frame.anchor, mark);
  }

  Status Count(std::size_t size, const yaml_mark_t& mark) {
    made_ += size;
    if (made_ > budget_) {
      return Error(mark, fmt::format("expands to more than {} values and bytes beyond its own "
                                     "length (through its anchors and aliases)",
                                     kMaxYamlValues));
    }
    return Status::Ok();
  }

  // Puts a finished value where it belongs, its container or the root, keeping a copy (counted)
  // under its anchor.
  Status Place(Built built, const std::string& anchor, const yaml_mark_t& mark) {
    if (!anchor.empty()) {
      if (Status status = Count(built.size, mark); !status.ok()) {
        return status;
      }
      anchors_[anchor] = built;
    }
    if (stack_.empty()) {
      root_ = std::move(built.value);
      return Status::Ok();
    }
    Built& parent = stack_.back().built;
    parent.size += built.size;
    parent.depth = std::max(parent.depth, built.depth + 1);
    if (parent.value.is_array()) {
      parent.value.push_back(std::move(built.value));
    } else {
      parent.value[*stack_.back().key] = std::move(built.value);
      stack_.back().key.reset();
    }
    return Status::Ok();
  }

  const std::string& source_;
  const std::size_t budget_;
  std::vector<Frame> stack_;
  std::optional<nlohmann::json> root_;
  std::vector<nlohmann::json> docs_;
  std::map<std::string, Built> anchors_;
  std::size_t made_ = 0;
};

// Line and column (1-based) of a byte offset into `text`.
std::pair<std::size_t, std::size_t> LineAndColumn(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  const std::size_t lines = static_cast<std::size_t>(
      std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
  const std::size_t column =
      line_start == std::string::npos || offset == 0 ? offset : offset - line_start - 1;
  return {lines + 1, column + 1};
}

// libyaml's error, located: a reader error (bad UTF-8) has a byte offset, the others a mark.
Status ParserError(const yaml_parser_t& parser, const std::string& text,
                   const std::string& source) {
  const std::string problem = parser.problem != nullptr ? parser.problem : "invalid YAML";
  if (parser.error == YAML_READER_ERROR) {
    const auto [line, column] = LineAndColumn(text, parser.problem_offset);
    return Status::InvalidInput(fmt::format("{}:{}:{}: {}", source, line, column, problem));
  }
  const std::string context = parser.context != nullptr ? parser.context : "";
  return Status::InvalidInput(fmt::format("{}:{}:{}: {}{}", source, parser.problem_mark.line + 1,
                                          parser.problem_mark.column + 1, problem,
                                          context.empty() ? "" : " (" + context + ")"));
}

}  // namespace

Status ParseYamlText(const std::string& text, const std::string& source,
                     std::vector<nlohmann::json>& docs) {
  yaml_parser_t parser;
  if (yaml_parser_initialize(&parser) == 0) {
    return Status::InvalidInput(source + ": cannot start the YAML parser (out of memory)");
  }
  const std::unique_ptr<yaml_parser_t, void (*)(yaml_parser_t*)> owned(&parser, yaml_parser_delete);
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  TreeBuilder builder(source, text.size());
  for (bool done = false; !done;) {
    yaml_event_t event;
    if (yaml_parser_parse(&parser, &event) == 0) {
      return ParserError(parser, text, source);
    }
    const Status status = builder.Take(event);
    done = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    if (!status.ok()) {
      return status;
    }
  }
  docs = builder.TakeDocuments();
  return Status::Ok();
}

Status LoadYamlDocuments(const FileSystem& files, const std::string& path,
                         std::vector<nlohmann::json>& docs) {
  std::string text;
  if (Status status = files.ReadFile(path, text); !status.ok()) {
    return status;
  }
  // JSON (kubectl's -o json) is read by nlohmann/json, with the messages of every JSON input.
  if (const std::size_t first = text.find_first_not_of(" \t\r\n");
      first != std::string::npos && (text[first] == '{' || text[first] == '[')) {
    nlohmann::json json;
    if (Status status = ParseJsonText(text, path, json); !status.ok()) {
      return status;
    }
    docs = {std::move(json)};
    return Status::Ok();
  }
  return ParseYamlText(text, path, docs);
}

DocumentNode DocumentNode::operator[](std::string_view key) const {
  if (!IsMap()) {
    return DocumentNode();
  }
  const auto found = value_->find(key);
  return found == value_->end() ? DocumentNode() : DocumentNode(*found);
}

DocumentNode DocumentNode::operator[](std::size_t index) const {
  return IsSequence() && index < value_->size() ? DocumentNode((*value_)[index]) : DocumentNode();
}

std::vector<DocumentNode> DocumentNode::Elements() const {
  std::vector<DocumentNode> elements;
  if (IsSequence()) {
    for (const nlohmann::json& element : *value_) {
      elements.emplace_back(element);
    }
  }
  return elements;
}

std::vector<std::pair<std::string, DocumentNode>> DocumentNode::Entries() const {
  std::vector<std::pair<std::string, DocumentNode>> entries;
  if (IsMap()) {
    for (const auto& [key, value] : value_->items()) {
      entries.emplace_back(key, DocumentNode(value));
    }
  }
  return entries;
}

std::string DocumentNode::Text() const {
  if (value_ == nullptr || value_->is_structured() || value_->is_null()) {
    return "";
  }
  return value_->is_string() ? value_->get<std::string>() : value_->dump();
}

std::optional<double> YamlNumber(const DocumentNode& node) {
  const std::string text = YamlText(node);
  if (text.empty()) {
    return std::nullopt;
  }
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

Status ObjectsOfKind(const std::vector<nlohmann::json>& docs, const std::string& path,
                     const std::string& kind, const std::string& noun, const std::string& expected,
                     std::vector<KindObject>& out) {
  const auto kind_of = [](const DocumentNode& node) {
    return node.IsMap() ? YamlText(node["kind"]) : std::string();
  };
  const auto refuse = [&](const std::string& found, const std::string& where) {
    return Status::InvalidInput(
        fmt::format("{}: expected {}, found {}", where, expected,
                    found.empty() ? std::string("no kind") : "kind '" + found + "'"));
  };
  for (const nlohmann::json& value : docs) {
    const DocumentNode doc(value);
    if (doc.IsNull()) {
      continue;
    }
    const std::string doc_kind = kind_of(doc);
    if (doc_kind == kind) {
      out.push_back({doc, fmt::format("{}: {} '{}'", path, noun,
                                      ShownName(YamlText(doc["metadata"]["name"])))});
      continue;
    }
    if ((doc_kind != "List" && doc_kind != kind + "List") || !doc["items"] ||
        !doc["items"].IsSequence()) {
      return refuse(doc_kind, path);
    }
    const std::vector<DocumentNode> items = doc["items"].Elements();
    for (std::size_t i = 0; i < items.size(); ++i) {
      const DocumentNode& item = items[i];
      const std::string item_kind = kind_of(item);
      const std::string where = fmt::format("{}: items[{}]", path, i);
      // A typed list (NodeList, QueueList: the API's own) may leave its items' kind out; a
      // generic List (kubectl's) names each.
      if (item_kind != kind && (!item_kind.empty() || doc_kind == "List")) {
        return refuse(item_kind, where);
      }
      out.push_back(
          {item, fmt::format("{} ({} '{}')", where, noun,
                             item.IsMap() ? ShownName(YamlText(item["metadata"]["name"])) : "")});
    }
  }
  return Status::Ok();
}

}  // namespace fleetsim
