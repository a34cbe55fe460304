//! Modules import downward only: no crate of the workspace has two modules
//! that use each other's items, directly or around a circle.
//!
//! The check reads the sources with `syn`. A module is a file (`mod.rs` is
//! its folder's module). Module `a` depends on module `b` when code in `a`
//! names an item defined in `b`: paths through `pub use` are followed to
//! where the item is defined, so a `mod.rs` that re-exports its children
//! depends on none of them. Code under `#[cfg(test)]` is left out: tests
//! may reach anywhere.
//!
//! `SMALLSCOPE_IMPORTS_OF=beapi::engine cargo test -p smallscope --test all import_cycles`
//! prints what each path named in that module resolves to.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

type ModPath = Vec<String>;

/// What one file declares and uses.
#[derive(Default)]
struct Module {
    /// Names its `use` declarations bring in (private or not), to the absolute path they stand for.
    names: BTreeMap<String, ModPath>,
    /// Absolute paths its glob imports (`use x::*`) read.
    globs: Vec<ModPath>,
    /// Absolute paths its code names (not counting `pub use` re-exports).
    uses: Vec<ModPath>,
}

struct Crate {
    name: String,
    modules: BTreeMap<ModPath, Module>,
}

/// The module path of a source file under `src`.
fn module_path(src: &Path, file: &Path) -> ModPath {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut path: ModPath = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(path.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        path.pop();
    }
    // A binary's `src/bin/x.rs` is a crate of its own; it is read with the library.
    path
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Meta>().is_ok_and(|m| m.path().is_ident("test")))
}

/// Reads one file's items into `module`; `here` is the module the items are in.
struct Reader<'a> {
    here: ModPath,
    /// The modules declared in this file (`mod x;`), which paths may start with.
    children: &'a BTreeSet<String>,
    module: &'a mut Module,
}

impl Reader<'_> {
    /// The absolute path a path written in this module stands for, if it is one of the crate's.
    fn absolute(&self, segments: &[String]) -> Option<ModPath> {
        let (first, rest) = segments.split_first()?;
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.here.clone(),
            "super" => {
                let mut base = self.here.clone();
                base.pop()?;
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                return Some(base);
            }
            // A child module: `calls::run`, not a local variable that shares its name.
            child if self.children.contains(child) && !rest.is_empty() => {
                self.here.iter().chain([first]).cloned().collect()
            }
            // A name a `use` brought in.
            name => {
                let mut path = self.module.names.get(name)?.clone();
                path.extend(rest.iter().cloned());
                return Some(path);
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, reexport: bool) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree, reexport);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.bind(prefix, n.ident.to_string(), n.ident.to_string(), reexport),
            syn::UseTree::Rename(r) => self.bind(prefix, r.ident.to_string(), r.rename.to_string(), reexport),
            syn::UseTree::Glob(_) => {
                if let Some(path) = self.absolute(prefix) {
                    self.module.globs.push(path.clone());
                    if !reexport {
                        self.module.uses.push(path);
                    }
                }
            }
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree, reexport);
                }
            }
        }
    }

    fn bind(&mut self, prefix: &[String], name: String, alias: String, reexport: bool) {
        let mut written = prefix.to_vec();
        if name != "self" {
            written.push(name);
        }
        let Some(path) = self.absolute(&written) else { return };
        if !reexport {
            self.module.uses.push(path.clone());
        }
        if alias != "_" {
            let key = if alias == "self" { written.last().cloned().unwrap_or_default() } else { alias };
            self.module.names.insert(key, path);
        }
    }
}

/// Collects the paths code names, outside `use` declarations.
struct PathsInCode<'r, 'a> {
    reader: &'r mut Reader<'a>,
}

impl<'ast> Visit<'ast> for PathsInCode<'_, '_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(p) = self.reader.absolute(&segments) {
            self.reader.module.uses.push(p);
        }
        syn::visit::visit_path(self, path);
    }

    // `pub(super)` names a module without depending on it.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Use(_) => return,
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Trait(t) => &t.attrs,
            syn::Item::Macro(m) => &m.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // Paths inside macro calls (`format!`, `vec!`, `matches!`) are read as expressions where they parse.
        if let Ok(args) =
            mac.parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
        {
            for arg in &args {
                self.visit_expr(arg);
            }
        }
        syn::visit::visit_macro(self, mac);
    }
}

fn read_crate(name: &str, src: &Path) -> Crate {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.retain(|f| !f.starts_with(src.join("bin")));
    let mut modules = BTreeMap::new();
    for file in files {
        let here = module_path(src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let children: BTreeSet<String> = parsed
            .items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Mod(m) if m.content.is_none() => Some(m.ident.to_string()),
                _ => None,
            })
            .collect();
        let mut module = Module::default();
        let mut reader = Reader { here: here.clone(), children: &children, module: &mut module };
        // Uses first, so code's paths can go through the names they bring in.
        for item in &parsed.items {
            if let syn::Item::Use(u) = item {
                if !is_test_only(&u.attrs) {
                    let reexport = !matches!(u.vis, syn::Visibility::Inherited);
                    reader.use_tree(&mut Vec::new(), &u.tree, reexport);
                }
            }
        }
        let mut code = PathsInCode { reader: &mut reader };
        for item in &parsed.items {
            code.visit_item(item);
        }
        modules.insert(here, module);
    }
    Crate { name: name.to_owned(), modules }
}

impl Crate {
    /// The file module where the item `path` names is defined, following re-exports.
    fn defining(&self, path: &[String], depth: usize) -> Option<ModPath> {
        if depth > 16 {
            return None;
        }
        let mut module: ModPath = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(segment.clone());
            if self.modules.contains_key(&child) {
                module = child;
                continue;
            }
            let here = self.modules.get(&module)?;
            if let Some(target) = here.names.get(segment) {
                let mut through: ModPath = target.clone();
                through.extend(path[i + 1..].iter().cloned());
                return self.defining(&through, depth + 1).or(Some(module));
            }
            for glob in &here.globs {
                let mut through = glob.clone();
                through.extend(path[i..].iter().cloned());
                if let Some(found) = self.defining(&through, depth + 1) {
                    if &found != glob {
                        return Some(found);
                    }
                }
            }
            return Some(module);
        }
        Some(module)
    }

    /// Each module's dependencies: the other modules whose items its code names.
    fn dependencies(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        let mut graph = BTreeMap::new();
        for (here, module) in &self.modules {
            let targets: BTreeSet<ModPath> = module
                .uses
                .iter()
                .filter_map(|p| {
                    let d = self.defining(p, 0);
                    if std::env::var("SMALLSCOPE_IMPORTS_OF").is_ok_and(|m| m == show(here)) {
                        eprintln!("{p:?} -> {d:?}");
                    }
                    d
                })
                .filter(|target| target != here && !target.is_empty())
                .collect();
            graph.insert(here.clone(), targets);
        }
        graph
    }
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct State<'g> {
        graph: &'g BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'g ModPath, usize>,
        low: BTreeMap<&'g ModPath, usize>,
        stack: Vec<&'g ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.graph.contains_key(w) {
                continue;
            }
            let w = s.graph.get_key_value(w).unwrap().0;
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut state = State { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), out: Vec::new() };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out
}

fn show(path: &[String]) -> String {
    if path.is_empty() {
        "crate".to_owned()
    } else {
        path.join("::")
    }
}

/// Every cycle of a crate, each with the dependencies that close it.
fn describe(krate: &Crate) -> Vec<String> {
    let graph = krate.dependencies();
    cycles(&graph)
        .into_iter()
        .map(|component| {
            let inside: BTreeSet<&ModPath> = component.iter().collect();
            let edges: Vec<String> = component
                .iter()
                .map(|m| {
                    let to: Vec<String> = graph[m].iter().filter(|t| inside.contains(t)).map(|t| show(t)).collect();
                    format!("    {} -> {}", show(m), to.join(", "))
                })
                .collect();
            format!("{}: a cycle of {} modules:\n{}", krate.name, component.len(), edges.join("\n"))
        })
        .collect()
}

fn workspace_crates() -> Vec<(String, PathBuf)> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(crates)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p.join("src")))
        .collect();
    out.sort();
    out
}

#[test]
fn no_crate_has_an_import_cycle() {
    let described: Vec<String> =
        workspace_crates().iter().flat_map(|(name, src)| describe(&read_crate(name, src))).collect();
    assert!(described.is_empty(), "modules that import each other, around a circle:\n{}", described.join("\n"));
}

/// The check itself: it sees a cycle through a re-export, and not one
/// that is only re-exports.
#[test]
fn the_check_follows_re_exports_to_where_items_are_defined() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let write = |path: &str, text: &str| {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    };
    write("lib.rs", "pub mod model;\npub mod engine;\n");
    write("model/mod.rs", "mod shape;\npub use shape::Shape;\n");
    write("model/shape.rs", "pub struct Shape;\n");
    write("engine.rs", "use crate::model::Shape;\npub fn run(_: Shape) {}\n");
    assert!(describe(&read_crate("downward", dir)).is_empty());
    // The model now names the engine's item: a cycle between the file that defines `Shape` and the engine.
    write("model/shape.rs", "pub struct Shape;\nimpl Shape { pub fn go(self) { crate::engine::run(self) } }\n");
    let found = describe(&read_crate("upward", dir));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("engine -> model::shape") && found[0].contains("model::shape -> engine"), "{}", found[0]);
}
