// SPDX-License-Identifier: Apache-2.0
// The fact schema reference page (doc_schema.h).
#include "engine/cli/doc_schema.h"

#include <algorithm>
#include <cctype>

#include "engine/check/schema_decls.h"
#include "engine/common/escape.h"
#include "engine/lint/rule_catalog.h"
#include "engine/report/json_schema.h"

namespace capops::cli::doc {

namespace {

struct FieldRow {
  std::string name;
  std::string type;  // as CPL writes it: `list<Pool>`, `int in 1..`
  bool required = true;
  std::string default_text;  // CPL source of the default, if any
  std::string doc;
  std::string values;  // what a value looks like, `code` in backticks
  std::vector<std::string> readers;
};

struct Entry {
  Entry(const char* kind, std::string name, std::string doc, std::string defined_at)
      : kind(kind), name(std::move(name)), doc(std::move(doc)), defined_at(std::move(defined_at)) {}
  const char* kind;  // "document", "record", "enum"
  std::string name;
  std::string doc;
  std::string defined_at;
  bool keyed = false;
  std::vector<FieldRow> fields;
  std::vector<std::string> members;  // enums, as YAML writes them
};

std::string SourceText(const SourceManager& sources, const Span& span) {
  return sources.file(span.file).text().substr(span.begin, span.end - span.begin);
}

std::vector<Entry> BuildEntries(
    const Engine& engine, const CatalogPaths& paths,
    const std::map<std::string, std::vector<std::string>, std::less<>>& readers) {
  const check::Program& program = *engine.program();
  const TypeTable& schema = program.schema;
  const SourceManager& sources = engine.sources();
  std::vector<Entry> entries;
  auto at = [&](const Span& span) {
    SourceLoc loc = sources.Resolve(span);
    return paths.Show(std::string(sources.Path(loc.file)), loc.line);
  };
  const check::SchemaDecls decls(program);
  for (const check::SchemaDecls::Declared& declared : decls.records()) {
    const syntax::RecordDecl& decl = *declared.decl;
    const RecordDef& def = *declared.def;
    Entry e(decl.is_document ? "document" : "record", decl.name, decl.doc, at(decl.name_span));
    e.keyed = def.keyed();
    for (const syntax::FieldDecl& f : decl.fields) {
      const FieldDef* field = def.Find(f.name);
      if (field == nullptr) continue;
      FieldRow row;
      row.name = f.name;
      row.type = schema.DeclaredType(*field);
      row.required = !field->optional && !field->has_default;
      if (f.default_value) row.default_text = SourceText(sources, f.default_value->span);
      row.doc = f.doc;
      row.values = report::FieldShape(schema, *field);
      auto r = readers.find(decl.name + "." + f.name);
      if (r != readers.end()) row.readers = r->second;
      e.fields.push_back(std::move(row));
    }
    entries.push_back(std::move(e));
  }
  for (const auto& module : program.modules) {
    for (const syntax::EnumDecl& decl : module->enums) {
      Entry e("enum", decl.name, decl.doc, at(decl.name_span));
      for (const syntax::EnumDecl::Member& m : decl.members)
        e.members.push_back(EnumDef::FactSpelling(m.name));
      entries.push_back(std::move(e));
    }
  }
  // Documents, then records, then enums; each in declaration order.
  auto rank = [](const Entry& e) {
    return std::string_view(e.kind) == "document" ? 0
           : std::string_view(e.kind) == "record" ? 1
                                                  : 2;
  };
  std::stable_sort(entries.begin(), entries.end(),
                   [&](const Entry& a, const Entry& b) { return rank(a) < rank(b); });
  return entries;
}

// Escaped text with each `code` span as <code>.
std::string HtmlCode(std::string_view text) {
  std::string escaped = Html(text), out;
  bool open = false;
  for (char c : escaped) {
    if (c != '`') {
      out += c;
      continue;
    }
    out += open ? "</code>" : "<code>";
    open = !open;
  }
  if (open) out += "</code>";
  return out;
}

// A type with the records and enums it names linked to their entries.
std::string HtmlType(const std::string& type, const TypeTable& schema) {
  std::string out, word;
  auto flush = [&] {
    bool known = schema.record_by_name.count(word) != 0 || schema.enum_by_name.count(word) != 0;
    out += known ? "<a href=\"#" + Html(word) + "\">" + Html(word) + "</a>" : Html(word);
    word.clear();
  };
  for (char c : type) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += c;
      continue;
    }
    flush();
    out += Html(std::string(1, c));
  }
  flush();
  return "<code>" + out + "</code>";
}

void WriteHtml(const std::vector<Entry>& entries, const TypeTable& schema, std::ostream& out) {
  PageStart("Fact schema", out);
  out << "<h1>Fact schema</h1>\n<p>What a <code>CapacityPlan</code> and an <code>Inventory</code> "
         "hold: every record the rules are checked against. A field marked <em>optional</em> may "
         "be "
         "left out; one with a default is filled in with it. A list of records with an "
         "<code>id</code> is keyed: ids are unique, and other facts refer to them by id. "
         "<a href=\"index.html\">Rule catalogue</a>.</p>\n<nav><ul>\n";
  for (const Entry& e : entries)
    out << "<li>" << e.kind << " <a href=\"#" << Html(e.name) << "\">" << Html(e.name)
        << "</a></li>\n";
  out << "</ul></nav>\n";
  for (const Entry& e : entries) {
    out << "<section class=\"" << e.kind << "\" id=\"" << Html(e.name) << "\">\n<h2>" << e.kind
        << " " << Html(e.name) << "</h2>\n<p class=\"defined\">defined at <code>"
        << Html(e.defined_at) << "</code>"
        << (e.keyed ? "; lists of it are keyed by <code>id</code>" : "") << "</p>\n";
    if (!e.doc.empty()) out << "<p>" << Html(e.doc) << "</p>\n";
    if (!e.members.empty()) {
      out << "<p>Written in YAML as:";
      for (size_t i = 0; i < e.members.size(); ++i)
        out << (i == 0 ? " " : ", ") << "<code>" << Html(e.members[i]) << "</code>";
      out << ".</p>\n";
    }
    if (!e.fields.empty())
      out << "<table class=\"fields\">\n<colgroup><col class=\"name\"><col class=\"type\"><col "
             "class=\"presence\"><col class=\"meaning\"><col class=\"readers\"></colgroup>\n"
             "<tr><th>field</th><th>type</th><th>presence</th><th>meaning</th><th>read "
             "by</th></tr>\n";
    for (const FieldRow& f : e.fields) {
      out << "<tr id=\"" << Html(e.name + "." + f.name) << "\"><td><code>" << Html(f.name)
          << "</code></td><td>" << HtmlType(f.type, schema) << "</td><td>"
          << (f.required               ? "required"
              : f.default_text.empty() ? "optional"
                                       : "default <code>" + Html(f.default_text) + "</code>")
          << "</td><td>" << Html(f.doc);
      if (!f.values.empty())
        out << (f.doc.empty() ? "" : "<br>") << "<small>" << HtmlCode(f.values) << "</small>";
      out << "</td><td>";
      for (size_t i = 0; i < f.readers.size(); ++i)
        out << (i == 0 ? "" : ", ") << "<a href=\"index.html#" << Html(f.readers[i]) << "\">"
            << Html(f.readers[i]) << "</a>";
      out << "</td></tr>\n";
    }
    if (!e.fields.empty()) out << "</table>\n";
    out << "</section>\n";
  }
  PageEnd(out);
}

void WriteMarkdown(const std::vector<Entry>& entries, std::ostream& out) {
  out << "# Fact schema\n\nWhat a `CapacityPlan` and an `Inventory` hold: every record the rules "
         "are checked against. A field marked *optional* may be left out; one with a default is "
         "filled in with it. A list of records with an `id` is keyed. See also the "
         "[rule catalogue](rules.md).\n";
  for (const Entry& e : entries) {
    out << "\n<a id=\"" << Html(e.name) << "\"></a>\n## " << e.kind << " `" << Visible(e.name)
        << "`\n\nDefined at `" << Visible(e.defined_at) << "`"
        << (e.keyed ? "; lists of it are keyed by `id`" : "") << ".\n";
    if (!e.doc.empty()) out << '\n' << Md(e.doc) << '\n';
    if (!e.members.empty()) {
      out << "\nWritten in YAML as:";
      for (size_t i = 0; i < e.members.size(); ++i)
        out << (i == 0 ? " `" : ", `") << Visible(e.members[i]) << '`';
      out << ".\n";
    }
    if (!e.fields.empty())
      out << "\n| field | type | presence | meaning | read by |\n|---|---|---|---|---|\n";
    for (const FieldRow& f : e.fields) {
      std::string meaning = f.doc;
      if (!f.values.empty()) meaning += (meaning.empty() ? "" : " ") + f.values;
      std::string readers;
      for (const std::string& r : f.readers) {
        readers += (readers.empty() ? "" : ", ") + std::string("[") + MarkdownCell(r, Cell::kText) +
                   "](rules.md#" + Fragment(r) + ")";
      }
      out << "| " << MarkdownCell(f.name, Cell::kCode) << " | " << MarkdownCell(f.type, Cell::kCode)
          << " | "
          << (f.required               ? "required"
              : f.default_text.empty() ? "optional"
                                       : "default " + MarkdownCell(f.default_text, Cell::kCode))
          << " | " << MarkdownCell(meaning, Cell::kMarkdown) << " | " << readers << " |\n";
    }
  }
}

}  // namespace

void WriteSchema(const Engine& engine, const CatalogPaths& paths,
                 const std::map<std::string, std::vector<std::string>, std::less<>>& readers,
                 std::ostream& html, std::ostream& md) {
  std::vector<Entry> entries = BuildEntries(engine, paths, readers);
  WriteHtml(entries, engine.program()->schema, html);
  WriteMarkdown(entries, md);
}

}  // namespace capops::cli::doc
