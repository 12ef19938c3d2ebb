//! The analysis: one walk over every node of the parsed module.
//!
//! Fail-closed reasoning: every statement, expression and pattern kind of the AST is
//! matched explicitly (the compiler enforces that the match is exhaustive), and the
//! kinds the checker does not analyse are rejected as `unsupported-syntax` instead of
//! skipped. Identifiers are NFKC-normalised before any comparison. Dangerous names are
//! rejected wherever they appear, not only when called: as a decorator, a dict value,
//! a default argument or a walrus target they still hand the object over.

use crate::blender;
use crate::names::{self, nfkc};
use crate::policy::Policy;
use crate::rules::{Finding, Rule};
use crate::source_map::SourceMap;
use rustpython_parser::ast::{self, Constant, Expr, ExprContext, Pattern, Ranged, Stmt};
use std::collections::HashMap;

/// How deep the walk follows nested expressions and statements before rejecting.
pub const MAX_DEPTH: usize = 100;
/// Findings beyond this are dropped (the verdict is already a rejection).
const MAX_FINDINGS: usize = 50;

pub struct Analyzer<'a> {
    source: &'a str,
    map: &'a SourceMap,
    policy: &'a Policy,
    pub findings: Vec<Finding>,
    /// Names bound to a module or a dotted path within one (`o = bpy.ops`).
    aliases: HashMap<String, Vec<String>>,
    depth: usize,
    too_deep: bool,
}

impl<'a> Analyzer<'a> {
    pub fn new(source: &'a str, map: &'a SourceMap, policy: &'a Policy) -> Self {
        Analyzer { source, map, policy, findings: Vec::new(), aliases: HashMap::new(), depth: 0, too_deep: false }
    }

    pub fn report(&mut self, rule: Rule, at: usize, message: String) {
        if self.findings.len() >= MAX_FINDINGS || self.findings.iter().any(|f| f.rule == rule && f.message == message) {
            return;
        }
        let (line, column) = self.map.locate(self.source, at);
        self.findings.push(Finding { rule, message, line, column });
    }

    fn enter(&mut self, at: usize) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            if !self.too_deep {
                self.too_deep = true;
                self.report(Rule::NestingTooDeep, at, format!("code nested more than {MAX_DEPTH} levels deep"));
            }
            return false;
        }
        true
    }

    pub fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        let at = s.range().start().into();
        if self.enter(at) {
            self.stmt_inner(s, at);
        }
        self.depth -= 1;
    }

    fn stmt_inner(&mut self, s: &Stmt, at: usize) {
        match s {
            Stmt::FunctionDef(f) => {
                self.exprs(&f.decorator_list);
                self.binding(f.name.as_str(), at, true);
                self.arguments(&f.args, at);
                self.opt(f.returns.as_deref());
                if !f.type_params.is_empty() {
                    self.unsupported(at, "type parameters (Python 3.12)");
                }
                self.stmts(&f.body);
            }
            Stmt::ClassDef(c) => {
                self.exprs(&c.decorator_list);
                self.binding(c.name.as_str(), at, false);
                self.exprs(&c.bases);
                for k in &c.keywords {
                    self.keyword(k, at);
                }
                if !c.type_params.is_empty() {
                    self.unsupported(at, "type parameters (Python 3.12)");
                }
                self.stmts(&c.body);
            }
            Stmt::Return(r) => self.opt(r.value.as_deref()),
            Stmt::Delete(d) => self.exprs(&d.targets),
            Stmt::Assign(a) => {
                self.exprs(&a.targets);
                self.expr(&a.value);
                self.track_alias(&a.targets, &a.value);
            }
            Stmt::AugAssign(a) => {
                self.expr(&a.target);
                self.expr(&a.value);
            }
            Stmt::AnnAssign(a) => {
                self.expr(&a.target);
                self.expr(&a.annotation);
                self.opt(a.value.as_deref());
            }
            Stmt::For(f) => {
                self.expr(&f.target);
                self.expr(&f.iter);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            Stmt::While(w) => {
                self.expr(&w.test);
                self.stmts(&w.body);
                self.stmts(&w.orelse);
            }
            Stmt::If(i) => {
                self.expr(&i.test);
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            Stmt::With(w) => {
                for item in &w.items {
                    self.expr(&item.context_expr);
                    self.opt(item.optional_vars.as_deref());
                }
                self.stmts(&w.body);
            }
            Stmt::Match(m) => {
                self.expr(&m.subject);
                for case in &m.cases {
                    self.pattern(&case.pattern);
                    self.opt(case.guard.as_deref());
                    self.stmts(&case.body);
                }
            }
            Stmt::Raise(r) => {
                self.opt(r.exc.as_deref());
                self.opt(r.cause.as_deref());
            }
            Stmt::Try(t) => self.try_parts(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            Stmt::TryStar(t) => self.try_parts(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            Stmt::Assert(a) => {
                self.expr(&a.test);
                self.opt(a.msg.as_deref());
            }
            Stmt::Import(i) => crate::imports::import(self, i, at),
            Stmt::ImportFrom(i) => crate::imports::import_from(self, i, at),
            Stmt::Global(g) => g.names.iter().for_each(|n| self.binding(n.as_str(), at, false)),
            Stmt::Nonlocal(n) => n.names.iter().for_each(|n| self.binding(n.as_str(), at, false)),
            Stmt::Expr(e) => self.expr(&e.value),
            Stmt::Pass(_) | Stmt::Break(_) | Stmt::Continue(_) => {}
            Stmt::AsyncFunctionDef(_) | Stmt::AsyncFor(_) | Stmt::AsyncWith(_) => self.unsupported(at, "async code"),
            Stmt::TypeAlias(_) => self.unsupported(at, "the `type` statement (Python 3.12)"),
        }
    }

    fn try_parts(&mut self, body: &[Stmt], handlers: &[ast::ExceptHandler], orelse: &[Stmt], finalbody: &[Stmt]) {
        self.stmts(body);
        for h in handlers {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            let at = h.range.start().into();
            self.opt(h.type_.as_deref());
            if let Some(n) = &h.name {
                self.binding(n.as_str(), at, false);
            }
            self.stmts(&h.body);
        }
        self.stmts(orelse);
        self.stmts(finalbody);
    }

    pub fn unsupported(&mut self, at: usize, what: &str) {
        self.report(Rule::UnsupportedSyntax, at, format!("{what} is not supported by the checker"));
    }

    fn arguments(&mut self, args: &ast::Arguments, at: usize) {
        for a in args.posonlyargs.iter().chain(&args.args).chain(&args.kwonlyargs) {
            self.binding(a.def.arg.as_str(), at, false);
            self.opt(a.def.annotation.as_deref());
            self.opt(a.default.as_deref());
        }
        for a in args.vararg.iter().chain(&args.kwarg) {
            self.binding(a.arg.as_str(), at, false);
            self.opt(a.annotation.as_deref());
        }
    }

    fn keyword(&mut self, k: &ast::Keyword, at: usize) {
        if let Some(name) = &k.arg {
            self.binding(name.as_str(), at, false);
        }
        self.expr(&k.value);
    }

    fn opt(&mut self, e: Option<&Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn exprs(&mut self, es: &[Expr]) {
        for e in es {
            self.expr(e);
        }
    }

    pub fn expr(&mut self, e: &Expr) {
        let at = e.range().start().into();
        if self.enter(at) {
            self.expr_inner(e, at);
        }
        self.depth -= 1;
    }

    fn expr_inner(&mut self, e: &Expr, at: usize) {
        match e {
            Expr::BoolOp(b) => self.exprs(&b.values),
            Expr::NamedExpr(n) => {
                self.expr(&n.target);
                self.expr(&n.value);
            }
            Expr::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            Expr::UnaryOp(u) => self.expr(&u.operand),
            Expr::Lambda(l) => {
                self.arguments(&l.args, at);
                self.expr(&l.body);
            }
            Expr::IfExp(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            Expr::Dict(d) => {
                d.keys.iter().flatten().for_each(|k| self.expr(k));
                self.exprs(&d.values);
            }
            Expr::Set(s) => self.exprs(&s.elts),
            Expr::ListComp(c) => self.comprehension(&[&c.elt], &c.generators),
            Expr::SetComp(c) => self.comprehension(&[&c.elt], &c.generators),
            Expr::GeneratorExp(c) => self.comprehension(&[&c.elt], &c.generators),
            Expr::DictComp(c) => self.comprehension(&[&c.key, &c.value], &c.generators),
            Expr::Await(_) => self.unsupported(at, "await"),
            Expr::Yield(y) => self.opt(y.value.as_deref()),
            Expr::YieldFrom(y) => self.expr(&y.value),
            Expr::Compare(c) => {
                self.expr(&c.left);
                self.exprs(&c.comparators);
            }
            Expr::Call(c) => crate::calls::call(self, c, at),
            Expr::FormattedValue(f) => {
                self.expr(&f.value);
                self.opt(f.format_spec.as_deref());
            }
            Expr::JoinedStr(j) => self.exprs(&j.values),
            Expr::Constant(_) => {}
            Expr::Attribute(a) => {
                self.expr(&a.value);
                let store = !matches!(a.ctx, ExprContext::Load);
                self.attribute(&a.value, a.attr.as_str(), store, at);
            }
            Expr::Subscript(s) => {
                self.expr(&s.value);
                self.expr(&s.slice);
            }
            Expr::Starred(s) => self.expr(&s.value),
            Expr::Name(n) => self.name(n.id.as_str(), at),
            Expr::List(l) => self.exprs(&l.elts),
            Expr::Tuple(t) => self.exprs(&t.elts),
            Expr::Slice(s) => {
                self.opt(s.lower.as_deref());
                self.opt(s.upper.as_deref());
                self.opt(s.step.as_deref());
            }
        }
    }

    fn comprehension(&mut self, elts: &[&Expr], generators: &[ast::Comprehension]) {
        for g in generators {
            if g.is_async {
                self.unsupported(g.target.range().start().into(), "async comprehensions");
            }
            self.expr(&g.target);
            self.expr(&g.iter);
            self.exprs(&g.ifs);
        }
        for e in elts {
            self.expr(e);
        }
    }

    fn pattern(&mut self, p: &Pattern) {
        let at: usize = p.range().start().into();
        if !self.enter(at) {
            self.depth -= 1;
            return;
        }
        match p {
            Pattern::MatchValue(v) => self.expr(&v.value),
            Pattern::MatchSingleton(_) => {}
            Pattern::MatchSequence(s) => s.patterns.iter().for_each(|p| self.pattern(p)),
            Pattern::MatchMapping(m) => {
                self.exprs(&m.keys);
                m.patterns.iter().for_each(|p| self.pattern(p));
                if let Some(rest) = &m.rest {
                    self.binding(rest.as_str(), at, false);
                }
            }
            Pattern::MatchClass(c) => {
                self.expr(&c.cls);
                c.patterns.iter().for_each(|p| self.pattern(p));
                // `case C(attr=...)` reads `subject.attr`: the same checks as an attribute.
                for attr in &c.kwd_attrs {
                    self.attribute(&c.cls, attr.as_str(), false, at);
                }
                c.kwd_patterns.iter().for_each(|p| self.pattern(p));
            }
            Pattern::MatchStar(s) => {
                if let Some(n) = &s.name {
                    self.binding(n.as_str(), at, false);
                }
            }
            Pattern::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p);
                }
                if let Some(n) = &a.name {
                    self.binding(n.as_str(), at, false);
                }
            }
            Pattern::MatchOr(o) => o.patterns.iter().for_each(|p| self.pattern(p)),
        }
        self.depth -= 1;
    }

    /// A name read or written as an expression.
    pub fn name(&mut self, raw: &str, at: usize) {
        let n = nfkc(raw);
        if names::is_dunder(&n) && !names::SAFE_DUNDER_NAMES.contains(&n.as_str()) {
            if names::DANGEROUS_BUILTINS.contains(&n.as_str()) {
                self.report(Rule::DangerousBuiltin, at, format!("`{n}` can run code, import or open files"));
            } else {
                self.report(Rule::DunderName, at, format!("the name `{n}` reaches interpreter internals"));
            }
            return;
        }
        self.common_name_checks(&n, at);
        if names::ATTRIBUTE_BUILTINS.contains(&n.as_str()) {
            self.report(Rule::DynamicAttribute, at, format!("`{n}` may only be called directly with a literal attribute name"));
        }
    }

    /// A name being defined (function, class, argument, handler, global, pattern
    /// capture). Defining dunder methods such as `__init__` is fine.
    fn binding(&mut self, raw: &str, at: usize, is_function: bool) {
        let n = nfkc(raw);
        if names::is_dunder(&n) {
            if !is_function {
                self.report(Rule::DunderName, at, format!("the name `{n}` reaches interpreter internals"));
            }
            return;
        }
        self.common_name_checks(&n, at);
    }

    fn common_name_checks(&mut self, n: &str, at: usize) {
        if names::DANGEROUS_BUILTINS.contains(&n) {
            self.report(Rule::DangerousBuiltin, at, format!("`{n}` can run code, import or open files"));
        } else if names::DANGEROUS_MODULES.contains(&n) {
            self.report(Rule::DangerousName, at, format!("`{n}` reaches the operating system or the interpreter"));
        }
        if self.policy.denies(n) {
            self.report(Rule::DeniedName, at, format!("`{n}` is denied by the policy"));
        }
    }

    /// `base.attr`, however it is spelled (`getattr(base, "attr")`, `case C(attr=_)`).
    pub fn attribute(&mut self, base: &Expr, raw: &str, store: bool, at: usize) {
        let attr = nfkc(raw);
        let on_self = matches!(base, Expr::Name(n) if matches!(n.id.as_str(), "self" | "cls"));
        if names::is_dunder(&attr) {
            if !names::SAFE_DUNDER_ATTRIBUTES.contains(&attr.as_str()) || store {
                self.report(Rule::DunderAttribute, at, format!("access to `.{attr}` reaches interpreter internals"));
            }
        } else if attr.starts_with('_') && !on_self {
            self.report(Rule::PrivateAttribute, at, format!("access to the private attribute `.{attr}`"));
        }
        if names::INTROSPECTION_ATTRIBUTES.contains(&attr.as_str()) {
            self.report(Rule::Introspection, at, format!("`.{attr}` exposes frames, code or globals"));
        }
        if names::DANGEROUS_MODULES.contains(&attr.as_str()) {
            self.report(Rule::DangerousName, at, format!("`.{attr}` reaches the operating system or the interpreter"));
        }
        if ["exec", "eval", "system", "popen", "load_module", "exec_module", "import_module"].contains(&attr.as_str()) {
            self.report(Rule::DangerousBuiltin, at, format!("`.{attr}` runs code"));
        }
        if self.policy.denies(&attr) {
            self.report(Rule::DeniedName, at, format!("`.{attr}` is denied by the policy"));
        }
        if let Some(rule) = blender::attribute_rule(&attr) {
            self.report(rule, at, format!("`.{attr}` is a Blender route to {}", route_kind(rule)));
        }
        if store && let Some(rule) = blender::store_rule(&attr) {
            self.report(rule, at, format!("setting `.{attr}` points Blender at {}", if rule == Rule::BlenderFileAccess { "a path on disk" } else { "code" }));
        }
        if let Some(mut path) = self.resolve(base) {
            path.push(attr.clone());
            self.check_path(&path, at);
        }
    }

    pub fn check_path(&mut self, path: &[String], at: usize) {
        if let Some((rule, route)) = blender::path_rule(path) {
            self.report(rule, at, format!("`{}` is a Blender route to {} (under `{route}`)", path.join("."), route_kind(rule)));
        }
    }

    /// The dotted path an expression names, when it is a chain of attributes on a
    /// module or an alias of one.
    pub fn resolve(&self, e: &Expr) -> Option<Vec<String>> {
        match e {
            Expr::Name(n) => {
                let n = nfkc(n.id.as_str());
                self.aliases.get(&n).cloned().or_else(|| matches!(n.as_str(), "bpy" | "bpy_extras" | "addon_utils").then(|| vec![n]))
            }
            Expr::Attribute(a) => self.resolve(&a.value).map(|mut p| {
                p.push(nfkc(a.attr.as_str()));
                p
            }),
            Expr::Call(c) => crate::calls::literal_getattr(c).and_then(|(base, name)| {
                self.resolve(base).map(|mut p| {
                    p.push(nfkc(&name));
                    p
                })
            }),
            _ => None,
        }
    }

    pub fn bind_alias(&mut self, name: &str, path: Vec<String>) {
        self.aliases.insert(nfkc(name), path);
    }

    /// `x = bpy.ops` (also `a = b = ...` and tuple targets left alone).
    fn track_alias(&mut self, targets: &[Expr], value: &Expr) {
        let path = self.resolve(value);
        for t in targets {
            if let Expr::Name(n) = t {
                match &path {
                    Some(p) => self.bind_alias(n.id.as_str(), p.clone()),
                    None => {
                        self.aliases.remove(&nfkc(n.id.as_str()));
                    }
                }
            }
        }
    }

    pub fn policy(&self) -> &Policy {
        self.policy
    }
}

pub fn route_kind(rule: Rule) -> &'static str {
    match rule {
        Rule::BlenderCodeExecution => "running Python",
        Rule::BlenderPersistence => "code that outlives the script",
        _ => "files on disk",
    }
}

/// A string constant's text, if `e` is one.
pub fn literal_str(e: &Expr) -> Option<&str> {
    match e {
        Expr::Constant(c) => match &c.value {
            Constant::Str(s) => Some(s.as_str()),
            _ => None,
        },
        _ => None,
    }
}
