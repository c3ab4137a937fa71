//! The crate's file-level import graph has no cycle.
//!
//! A cycle of imports between files means none of them can be understood, tested or moved
//! without the others: the layering the architecture describes (`nir`, `ra` and `util` at the
//! bottom, the backends on them, the compile entry above, `capi` and `bin` on top) holds only
//! while the graph is acyclic. Rust accepts cycles inside a crate, so nothing else notices
//! one coming back.
//!
//! The check reads the crate's sources itself (no parser crate): it builds the module tree
//! from `src/lib.rs` and each binary root under `src/bin` by following `mod x;` declarations
//! (with `#[path]`), and records in each module what it defines, what it imports (`use` trees,
//! groups, renames and globs, at any depth of the file) and which paths its code names
//! (`crate::a::b`, `super::x`, `self::y`, and paths through a name in scope such as
//! `fs::pipeline` after `use crate::intel::fs`). Each imported name is resolved to the file
//! that *defines* it, following `use` re-exports; a name found through a glob import counts
//! where the module names it. A path that stops at a module counts as importing that module's
//! file; a `mod x;` declaration is not an import (a parent owning a child is not a dependency
//! of either on the other's contents). Names the crate does not define (`std`, `log`, locals)
//! are skipped.
//!
//! Left out: everything under `#[cfg(test)]` (test modules, and so the `tests.rs` and
//! `*/tests/*` files they declare), since a test may reach anywhere in the crate it tests.
//! `gpucc::` paths in the binaries are the library's public interface, an edge that cannot
//! close a cycle, and are skipped too.
//!
//! It fails listing every strongly connected component of more than one file, with the edges
//! that tie it and the names each edge carries, and on any import between the scalar (`intel/fs`) and vec4
//! (`intel/vec4`) backends, which share only what the Intel layer (`intel/backend`) holds.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// Tokens

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::` or one punctuation character.
    Sym(String),
    /// A string literal's contents (raw text, escapes left as written).
    Str(String),
    /// Any other literal (numbers, characters).
    Lit,
    Lifetime,
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Splits Rust source into the tokens the graph needs; comments are dropped.
fn lex(src: &str) -> Vec<Tok> {
    let s: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    while i < s.len() {
        let c = s[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"'
            || (c == 'b' && at(i + 1) == '"')
            || ((c == 'r' || (c == 'b' && at(i + 1) == 'r'))
                && matches!(at(i + 1 + usize::from(c == 'b')), '"' | '#')
                && raw_string_start(&s, i + 1 + usize::from(c == 'b')))
        {
            let (text, end) = string_literal(&s, i);
            toks.push(Tok::Str(text));
            i = end;
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let q = if c == 'b' { i + 1 } else { i };
            if at(q + 1) == '\\' {
                // An escaped character literal.
                let mut j = q + 2;
                while j < s.len() && s[j] != '\'' {
                    j += 1;
                }
                toks.push(Tok::Lit);
                i = j + 1;
            } else if at(q + 2) == '\'' {
                toks.push(Tok::Lit);
                i = q + 3;
            } else {
                // A lifetime or label.
                let mut j = q + 1;
                while j < s.len() && is_ident_char(s[j]) {
                    j += 1;
                }
                toks.push(Tok::Lifetime);
                i = j;
            }
        } else if c == 'r' && at(i + 1) == '#' && is_ident_start(at(i + 2)) {
            let mut j = i + 2;
            while j < s.len() && is_ident_char(s[j]) {
                j += 1;
            }
            toks.push(Tok::Ident(s[i + 2..j].iter().collect()));
            i = j;
        } else if is_ident_start(c) {
            let mut j = i;
            while j < s.len() && is_ident_char(s[j]) {
                j += 1;
            }
            toks.push(Tok::Ident(s[i..j].iter().collect()));
            i = j;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < s.len()
                && (is_ident_char(s[j]) || (s[j] == '.' && at(j + 1).is_ascii_digit()))
            {
                j += 1;
            }
            toks.push(Tok::Lit);
            i = j;
        } else if c == ':' && at(i + 1) == ':' {
            toks.push(Tok::Sym("::".into()));
            i += 2;
        } else {
            toks.push(Tok::Sym(c.to_string()));
            i += 1;
        }
    }
    toks
}

/// Whether `r` at `i - 1` starts a raw string (`r"`, `r#"`, `r##"`...).
fn raw_string_start(s: &[char], mut i: usize) -> bool {
    while s.get(i) == Some(&'#') {
        i += 1;
    }
    s.get(i) == Some(&'"')
}

/// The contents of the string literal starting at `i` and the index after it.
fn string_literal(s: &[char], mut i: usize) -> (String, usize) {
    if s[i] == 'b' {
        i += 1;
    }
    if s[i] == 'r' {
        i += 1;
        let mut hashes = 0;
        while s[i] == '#' {
            hashes += 1;
            i += 1;
        }
        i += 1;
        let start = i;
        loop {
            if s[i] == '"' && (0..hashes).all(|k| s.get(i + 1 + k) == Some(&'#')) {
                return (s[start..i].iter().collect(), i + 1 + hashes);
            }
            i += 1;
        }
    }
    i += 1;
    let start = i;
    while s[i] != '"' {
        if s[i] == '\\' {
            i += 1;
        }
        i += 1;
    }
    (s[start..i].iter().collect(), i + 1)
}

fn is_sym(t: Option<&Tok>, s: &str) -> bool {
    matches!(t, Some(Tok::Sym(x)) if x == s)
}

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t {
        Some(Tok::Ident(x)) => Some(x),
        _ => None,
    }
}

/// The index after the bracketed group opening at `i` (`(`, `[` or `{`).
fn skip_group(toks: &[Tok], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < toks.len() {
        match &toks[i] {
            Tok::Sym(s) if matches!(s.as_str(), "(" | "[" | "{") => depth += 1,
            Tok::Sym(s) if matches!(s.as_str(), ")" | "]" | "}") => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Whether the attribute at `i` (`#` `[`) is exactly `#[cfg(test)]`.
fn is_cfg_test(toks: &[Tok], i: usize) -> bool {
    let want = ["#", "[", "cfg", "(", "test", ")", "]"];
    want.iter().enumerate().all(|(k, w)| match toks.get(i + k) {
        Some(Tok::Sym(s)) | Some(Tok::Ident(s)) => s == w,
        _ => false,
    })
}

/// The tokens without the items under `#[cfg(test)]`; empty for a file that is `#![cfg(test)]`.
fn strip_tests(toks: Vec<Tok>) -> Vec<Tok> {
    if is_sym(toks.first(), "#") && is_sym(toks.get(1), "!") {
        let mut rest = vec![Tok::Sym("#".into())];
        rest.extend(toks[2..].iter().cloned());
        if is_cfg_test(&rest, 0) {
            return Vec::new();
        }
    }
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if !is_cfg_test(&toks, i) {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        // Skip this attribute, any that follow, then the item: up to a `;` outside brackets,
        // or to the end of its first top-level `{...}` block.
        i += 7;
        while is_sym(toks.get(i), "#") && is_sym(toks.get(i + 1), "[") {
            i = skip_group(&toks, i + 1);
        }
        while i < toks.len() {
            match &toks[i] {
                Tok::Sym(s) if s == ";" => {
                    i += 1;
                    break;
                }
                Tok::Sym(s) if s == "{" => {
                    i = skip_group(&toks, i);
                    break;
                }
                Tok::Sym(s) if s == "(" || s == "[" => i = skip_group(&toks, i),
                _ => i += 1,
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Modules

/// One `use` leaf: the name it binds (`None` for a glob) and the full path.
#[derive(Clone, Debug)]
struct Import {
    name: Option<String>,
    path: Vec<String>,
}

#[derive(Debug, Default)]
struct Module {
    file: usize,
    root: usize,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    items: BTreeSet<String>,
    imports: Vec<Import>,
    /// Paths of two or more segments named in code.
    paths: Vec<Vec<String>>,
    /// Every identifier in code (candidates for names brought in by glob imports).
    idents: BTreeSet<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Res {
    Module(usize),
    Item(usize, String),
}

/// The crate's files and modules, and the import edges between files.
#[derive(Debug, Default)]
struct Graph {
    files: Vec<String>,
    modules: Vec<Module>,
    /// (from file, to file) → the names that tie them.
    edges: BTreeMap<(usize, usize), BTreeSet<String>>,
}

/// Where a file's child modules live: beside it for crate roots, `mod.rs` files and files
/// loaded by `#[path]`; in a folder named after it otherwise.
fn child_dir(file: &str, is_root_like: bool) -> String {
    let (dir, name) = match file.rfind('/') {
        Some(k) => (&file[..k + 1], &file[k + 1..]),
        None => ("", file),
    };
    if is_root_like || name == "mod.rs" {
        dir.to_string()
    } else {
        format!("{dir}{}/", name.trim_end_matches(".rs"))
    }
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "dyn", "async", "await",
];

impl Graph {
    /// Builds the graph of the crates rooted at `roots` (paths into `sources`).
    fn build(sources: &BTreeMap<String, String>, roots: &[&str]) -> Graph {
        let mut g = Graph::default();
        for root in roots {
            let m = g.modules.len();
            g.modules.push(Module {
                root: m,
                ..Default::default()
            });
            g.load_file(sources, root, m, true);
        }
        g.connect();
        g
    }

    fn add_file(&mut self, path: &str) -> usize {
        self.files.push(path.to_string());
        self.files.len() - 1
    }

    /// Reads `path` as the contents of module `m`, then the files it declares.
    fn load_file(
        &mut self,
        sources: &BTreeMap<String, String>,
        path: &str,
        m: usize,
        root_like: bool,
    ) {
        let Some(src) = sources.get(path) else {
            panic!("module file {path} not found");
        };
        let file = self.add_file(path);
        self.modules[m].file = file;
        let toks = strip_tests(lex(src));
        let mut decls = Vec::new();
        self.scan(&toks, m, &mut decls);
        let dir = child_dir(path, root_like);
        for (child, name, path_attr, inline_prefix) in decls {
            let (child_path, root_like) = match path_attr {
                Some(p) => (format!("{dir}{inline_prefix}{p}"), true),
                None => {
                    let flat = format!("{dir}{inline_prefix}{name}.rs");
                    if sources.contains_key(&flat) {
                        (flat, false)
                    } else {
                        (format!("{dir}{inline_prefix}{name}/mod.rs"), false)
                    }
                }
            };
            self.load_file(sources, &child_path, child, root_like);
        }
    }

    fn new_child(&mut self, parent: usize, name: &str) -> usize {
        let c = self.modules.len();
        let (file, root) = (self.modules[parent].file, self.modules[parent].root);
        self.modules.push(Module {
            file,
            root,
            parent: Some(parent),
            ..Default::default()
        });
        self.modules[parent].children.insert(name.to_string(), c);
        c
    }

    /// Records definitions, imports and paths of a file whose top level is module `m`;
    /// `decls` receives its `mod x;` declarations (child module, name, `#[path]`, folder of
    /// the inline modules around it).
    fn scan(
        &mut self,
        toks: &[Tok],
        m: usize,
        decls: &mut Vec<(usize, String, Option<String>, String)>,
    ) {
        // Module scopes: (module, brace depth inside it, folder prefix for its `mod x;`).
        let mut scopes: Vec<(usize, i32, String)> = vec![(m, 0, String::new())];
        let mut depth = 0i32;
        let mut path_attr: Option<String> = None;
        let mut i = 0;
        while i < toks.len() {
            let (cur, cur_depth, prefix) = scopes.last().cloned().unwrap();
            let at_item_level = depth == cur_depth;
            let t = &toks[i];
            match t {
                Tok::Sym(s) if s == "{" => depth += 1,
                Tok::Sym(s) if s == "}" => {
                    depth -= 1;
                    if depth < cur_depth {
                        scopes.pop();
                    }
                }
                Tok::Sym(s) if s == "#" && is_sym(toks.get(i + 1), "[") => {
                    if ident(toks.get(i + 2)) == Some("path") && is_sym(toks.get(i + 3), "=") {
                        if let Some(Tok::Str(p)) = toks.get(i + 4) {
                            path_attr = Some(p.clone());
                        }
                    }
                    i = skip_group(toks, i + 1);
                    continue;
                }
                // A visibility (`pub(in crate::a)`) names a module but imports nothing.
                Tok::Ident(k) if k == "pub" && is_sym(toks.get(i + 1), "(") => {
                    i = skip_group(toks, i + 1);
                    continue;
                }
                Tok::Ident(k) if k == "use" => {
                    let mut j = i + 1;
                    let mut leaves = Vec::new();
                    parse_use_tree(toks, &mut j, Vec::new(), &mut leaves);
                    self.modules[cur].imports.extend(leaves);
                    i = j;
                    continue;
                }
                Tok::Ident(k) if k == "mod" && at_item_level => {
                    if let Some(name) = ident(toks.get(i + 1)) {
                        let name = name.to_string();
                        let child = self.new_child(cur, &name);
                        if is_sym(toks.get(i + 2), ";") {
                            decls.push((child, name, path_attr.take(), prefix.clone()));
                            i += 3;
                        } else {
                            // An inline module: its scope opens with the `{`.
                            depth += 1;
                            scopes.push((child, depth, format!("{prefix}{name}/")));
                            i += 3;
                        }
                        continue;
                    }
                }
                Tok::Ident(k) if at_item_level && is_item_keyword(k, toks, i) => {
                    let name_at = if k == "macro_rules" { i + 2 } else { i + 1 };
                    if let Some(name) = ident(toks.get(name_at)) {
                        if name != "fn" && name != "_" {
                            self.modules[cur].items.insert(name.to_string());
                        }
                    }
                }
                Tok::Ident(first) => {
                    let after_path_sep = is_sym(i.checked_sub(1).and_then(|k| toks.get(k)), "::")
                        || is_sym(i.checked_sub(1).and_then(|k| toks.get(k)), ".");
                    if !after_path_sep {
                        if !KEYWORDS.contains(&first.as_str()) {
                            self.modules[cur].idents.insert(first.clone());
                        }
                        let mut path = vec![first.clone()];
                        let mut j = i + 1;
                        while is_sym(toks.get(j), "::") {
                            match ident(toks.get(j + 1)) {
                                Some(seg) => path.push(seg.to_string()),
                                None => break,
                            }
                            j += 2;
                        }
                        if path.len() > 1 {
                            self.modules[cur].paths.push(path);
                            i = j;
                            continue;
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// Module `m`'s binding of `name`, following imports to the defining module. `last`:
    /// nothing follows in the path (an item then wins over a module of the same name).
    fn lookup(
        &self,
        m: usize,
        name: &str,
        last: bool,
        guard: &mut HashSet<(usize, String)>,
    ) -> Option<Res> {
        if !guard.insert((m, name.to_string())) {
            return None;
        }
        let module = &self.modules[m];
        let item = module
            .items
            .contains(name)
            .then(|| Res::Item(m, name.to_string()));
        let child = module.children.get(name).map(|&c| Res::Module(c));
        let found = if last { item.or(child) } else { child.or(item) };
        if found.is_some() {
            return found;
        }
        for imp in &module.imports {
            if imp.name.as_deref() == Some(name) {
                if let Some(r) = self.resolve(m, &imp.path, guard) {
                    return Some(r);
                }
            }
        }
        for imp in module.imports.iter().filter(|i| i.name.is_none()) {
            if let Some(Res::Module(g)) = self.resolve(m, &imp.path, guard) {
                if let Some(r) = self.lookup(g, name, last, guard) {
                    return Some(r);
                }
            }
        }
        None
    }

    /// What `path`, written in module `m`, names; `None` outside the crate.
    fn resolve(
        &self,
        m: usize,
        path: &[String],
        guard: &mut HashSet<(usize, String)>,
    ) -> Option<Res> {
        let (first, rest) = path.split_first()?;
        let mut at = match first.as_str() {
            "crate" => Res::Module(self.modules[m].root),
            "super" => Res::Module(self.modules[m].parent?),
            "self" => Res::Module(m),
            _ => self.lookup(m, first, rest.is_empty(), guard)?,
        };
        for (k, seg) in rest.iter().enumerate() {
            let Res::Module(cur) = at else {
                // An associated item or enum variant: the item's file is the dependency.
                break;
            };
            at = match seg.as_str() {
                "super" => Res::Module(self.modules[cur].parent?),
                "self" => Res::Module(cur),
                _ => self.lookup(cur, seg, k + 1 == rest.len(), guard)?,
            };
        }
        Some(at)
    }

    fn file_of(&self, r: &Res) -> usize {
        match r {
            Res::Module(m) | Res::Item(m, _) => self.modules[*m].file,
        }
    }

    /// Resolves every import, path and glob-supplied name into file edges.
    fn connect(&mut self) {
        let mut edges: BTreeMap<(usize, usize), BTreeSet<String>> = BTreeMap::new();
        for m in 0..self.modules.len() {
            let module = &self.modules[m];
            let from = module.file;
            let mut add = |r: Option<Res>, label: String| {
                if let Some(r) = r {
                    let to = self.file_of(&r);
                    if to != from {
                        edges.entry((from, to)).or_default().insert(label);
                    }
                }
            };
            for imp in module.imports.iter().filter(|i| i.name.is_some()) {
                let r = self.resolve(m, &imp.path, &mut HashSet::new());
                add(r, imp.path.join("::"));
            }
            for path in &module.paths {
                let r = self.resolve(m, path, &mut HashSet::new());
                add(r, path.join("::"));
            }
            // Names supplied by glob imports: the ones the module uses and does not bind itself.
            for name in &module.idents {
                let bound = module.items.contains(name)
                    || module.children.contains_key(name)
                    || module
                        .imports
                        .iter()
                        .any(|i| i.name.as_deref() == Some(name));
                if bound {
                    continue;
                }
                for imp in module.imports.iter().filter(|i| i.name.is_none()) {
                    let mut guard = HashSet::new();
                    if let Some(Res::Module(g)) = self.resolve(m, &imp.path, &mut guard) {
                        if let Some(r) = self.lookup(g, name, true, &mut guard) {
                            add(Some(r), format!("{}::*: {name}", imp.path.join("::")));
                            break;
                        }
                    }
                }
            }
        }
        self.edges = edges;
    }

    /// The strongly connected components of more than one file (Tarjan), each sorted.
    fn cycles(&self) -> Vec<Vec<usize>> {
        let n = self.files.len();
        let mut succ = vec![Vec::new(); n];
        for &(a, b) in self.edges.keys() {
            succ[a].push(b);
        }
        struct St<'a> {
            succ: &'a [Vec<usize>],
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            on: Vec<bool>,
            stack: Vec<usize>,
            next: usize,
            out: Vec<Vec<usize>>,
        }
        fn visit(st: &mut St, v: usize) {
            st.index[v] = Some(st.next);
            st.low[v] = st.next;
            st.next += 1;
            st.stack.push(v);
            st.on[v] = true;
            for &w in st.succ[v].clone().iter() {
                match st.index[w] {
                    None => {
                        visit(st, w);
                        st.low[v] = st.low[v].min(st.low[w]);
                    }
                    Some(iw) if st.on[w] => st.low[v] = st.low[v].min(iw),
                    _ => {}
                }
            }
            if Some(st.low[v]) == st.index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = st.stack.pop().unwrap();
                    st.on[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort_unstable();
                    st.out.push(comp);
                }
            }
        }
        let mut st = St {
            succ: &succ,
            index: vec![None; n],
            low: vec![0; n],
            on: vec![false; n],
            stack: Vec::new(),
            next: 0,
            out: Vec::new(),
        };
        for v in 0..n {
            if st.index[v].is_none() {
                visit(&mut st, v);
            }
        }
        st.out.sort();
        st.out
    }

    /// Each cycle with the edges inside it, as text.
    fn report(&self) -> String {
        self.report_of(&self.cycles())
    }

    /// [`Graph::report`] of the given cycles.
    fn report_of(&self, cycles: &[Vec<usize>]) -> String {
        let mut out = String::new();
        for comp in cycles {
            let set: HashSet<usize> = comp.iter().copied().collect();
            out += &format!("cycle of {} files:\n", comp.len());
            for ((a, b), names) in &self.edges {
                if set.contains(a) && set.contains(b) {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    out += &format!(
                        "  {} -> {}: {}\n",
                        self.files[*a],
                        self.files[*b],
                        names.join(", ")
                    );
                }
            }
        }
        out
    }

    fn file(&self, path: &str) -> usize {
        self.files.iter().position(|f| f == path).unwrap()
    }

    /// The names on the edge `from -> to`, if there is one.
    fn edge(&self, from: &str, to: &str) -> Option<&BTreeSet<String>> {
        self.edges.get(&(self.file(from), self.file(to)))
    }
}

/// Whether the keyword at `i` introduces a named module-level item.
fn is_item_keyword(k: &str, toks: &[Tok], i: usize) -> bool {
    match k {
        "fn" | "struct" | "enum" | "trait" | "type" | "static" => true,
        "const" => ident(toks.get(i + 1)).is_some_and(|n| n != "fn" && n != "unsafe"),
        "union" => ident(toks.get(i + 1)).is_some(),
        "macro_rules" => is_sym(toks.get(i + 1), "!"),
        _ => false,
    }
}

/// Parses the use tree at `*i` (after `use`, or inside a group) under `prefix`, through the
/// closing `;` at the top level.
fn parse_use_tree(toks: &[Tok], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Import>) {
    let mut path = prefix;
    if is_sym(toks.get(*i), "::") {
        *i += 1;
    }
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(seg)) if seg == "self" && !path.is_empty() => {
                *i += 1;
                let mut name = path.last().cloned();
                if ident(toks.get(*i)) == Some("as") {
                    name = ident(toks.get(*i + 1)).map(str::to_string);
                    *i += 2;
                }
                out.push(Import { name, path });
                break;
            }
            Some(Tok::Ident(seg)) => {
                path.push(seg.clone());
                *i += 1;
                if is_sym(toks.get(*i), "::") {
                    *i += 1;
                    continue;
                }
                let mut name = Some(seg.clone());
                if ident(toks.get(*i)) == Some("as") {
                    name = ident(toks.get(*i + 1)).map(str::to_string);
                    *i += 2;
                }
                out.push(Import { name, path });
                break;
            }
            Some(Tok::Sym(s)) if s == "*" => {
                *i += 1;
                out.push(Import { name: None, path });
                break;
            }
            Some(Tok::Sym(s)) if s == "{" => {
                *i += 1;
                while !is_sym(toks.get(*i), "}") && *i < toks.len() {
                    parse_use_tree(toks, i, path.clone(), out);
                    if is_sym(toks.get(*i), ",") {
                        *i += 1;
                    }
                }
                *i += 1;
                break;
            }
            _ => break,
        }
    }
    if is_sym(toks.get(*i), ";") {
        *i += 1;
    }
}

// ---------------------------------------------------------------------------------------------
// The crate

fn read_tree(dir: &Path, base: &Path, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_tree(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(rel, std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn module_graph_has_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = BTreeMap::new();
    read_tree(&src, &src, &mut sources);
    let mut roots = vec!["lib.rs".to_string()];
    for path in sources.keys() {
        let rest = path.strip_prefix("bin/");
        if rest.is_some_and(|r| {
            !r.contains('/') || r.matches('/').count() == 1 && r.ends_with("/main.rs")
        }) {
            roots.push(path.clone());
        }
    }
    let roots: Vec<&str> = roots.iter().map(String::as_str).collect();
    let g = Graph::build(&sources, &roots);
    // The check saw the crate: the compile entry imports its backends.
    assert!(g.files.len() > 200, "only {} files reached", g.files.len());
    assert!(g.edge("compiler.rs", "target.rs").is_some());
    // The two Intel backends share only what the Intel layer (intel/backend) holds.
    let backend = |f: usize| {
        let path = g.files[f].as_str();
        ["intel/fs/", "intel/vec4/"]
            .into_iter()
            .find(|b| path.starts_with(b))
    };
    let crossing: Vec<String> = g
        .edges
        .iter()
        .filter(|((a, b), _)| {
            backend(*a).is_some() && backend(*b).is_some() && backend(*a) != backend(*b)
        })
        .map(|((a, b), names)| format!("{} -> {}: {names:?}", g.files[*a], g.files[*b]))
        .collect();
    assert!(
        crossing.is_empty(),
        "fs and vec4 import each other:\n{}",
        crossing.join("\n")
    );
    let report = g.report_of(&g.cycles());
    assert!(
        report.is_empty(),
        "the module import graph has cycles:\n{report}"
    );
}

// ---------------------------------------------------------------------------------------------
// The resolver on hand-written crates

fn crate_of(files: &[(&str, &str)]) -> Graph {
    let sources = files
        .iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect();
    Graph::build(&sources, &["lib.rs"])
}

#[test]
fn a_cycle_is_found_with_its_names() {
    let g = crate_of(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;"),
        ("a.rs", "use crate::b::Thing;\npub struct Err;"),
        (
            "b.rs",
            "pub struct Thing;\nfn f() -> crate::a::Err { crate::a::Err }",
        ),
        ("c.rs", "use crate::a::Err;"),
    ]);
    let cycles = g.cycles();
    assert_eq!(cycles, vec![vec![g.file("a.rs"), g.file("b.rs")]]);
    let report = g.report();
    assert!(report.contains("a.rs -> b.rs: crate::b::Thing"), "{report}");
    assert!(report.contains("b.rs -> a.rs: crate::a::Err"), "{report}");
    // c.rs imports into the cycle but is not part of it.
    assert!(!report.contains("c.rs"), "{report}");
}

#[test]
fn a_re_export_is_followed_to_the_defining_file() {
    let g = crate_of(&[
        ("lib.rs", "pub mod top;\npub mod low;\npub mod user;"),
        (
            "top.rs",
            "pub use crate::low::Error;\nuse crate::user::helper;",
        ),
        ("low.rs", "pub enum Error { A }"),
        (
            "user.rs",
            "use crate::top::Error;\npub fn helper() -> Error { Error::A }",
        ),
    ]);
    // user.rs names the error through top.rs, but depends on low.rs, where it is defined.
    assert!(g.edge("user.rs", "low.rs").is_some());
    assert!(g.edge("user.rs", "top.rs").is_none());
    assert!(g.cycles().is_empty(), "{}", g.report());
}

#[test]
fn a_mod_declaration_is_not_an_edge() {
    let g = crate_of(&[
        ("lib.rs", "pub mod fs;"),
        ("fs/mod.rs", "pub mod ir;\nmod pipeline;\npub use ir::Reg;"),
        ("fs/ir.rs", "pub struct Reg;"),
        ("fs/pipeline.rs", "use super::ir::Reg;\nfn f(_: Reg) {}"),
    ]);
    // fs/mod.rs declares pipeline.rs and pipeline.rs imports through it: no cycle.
    assert!(g.edge("fs/mod.rs", "fs/pipeline.rs").is_none());
    assert!(g.edge("fs/pipeline.rs", "fs/ir.rs").is_some());
    assert!(g.edge("fs/pipeline.rs", "fs/mod.rs").is_none());
    assert!(g.cycles().is_empty(), "{}", g.report());
}

#[test]
fn groups_globs_inline_paths_modules_and_tests() {
    let g = crate_of(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;"),
        (
            "a.rs",
            "use crate::{b::{self, X as Y}, c::*};\n\
             fn f() { b::g(); let _ = Z; }\n\
             #[cfg(test)]\nmod tests { use crate::d::T; }",
        ),
        (
            "b.rs",
            "pub struct X;\npub fn g() {}\nmod inner { pub fn h() { crate::c::Z; } }",
        ),
        ("c.rs", "pub const Z: u32 = 0;\npub const W: u32 = 0;"),
        (
            "d.rs",
            "/* use crate::a::f; */ pub struct T; const S: &str = \"crate::a::f\";",
        ),
    ]);
    let ab = g.edge("a.rs", "b.rs").unwrap();
    assert!(
        ab.contains("crate::b::X") && ab.contains("crate::b") && ab.contains("b::g"),
        "{ab:?}"
    );
    // The glob supplies only what a.rs uses.
    assert_eq!(g.edge("a.rs", "c.rs").unwrap().len(), 1);
    // An inline module's paths belong to its file.
    assert!(g.edge("b.rs", "c.rs").is_some());
    // Test modules, comments and strings are not imports.
    assert!(g.edge("a.rs", "d.rs").is_none());
    assert!(g.edge("d.rs", "a.rs").is_none());
}
