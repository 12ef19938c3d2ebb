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
use ruff_ast::{self as ast, Expr, ExprContext, InterpolatedStringElement, InterpolatedStringElements, Pattern, Stmt};
use ruff_text_size::Ranged;
use crate::census::Census;
use crate::handles::Place;

/// How deep the walk follows nested expressions and statements before rejecting.
pub const MAX_DEPTH: usize = 100;
/// Findings beyond this are dropped (the verdict is already a rejection).
const MAX_FINDINGS: usize = 50;

pub struct Analyzer<'a> {
    pub(crate) source: &'a str,
    pub(crate) map: &'a SourceMap,
    pub(crate) policy: &'a Policy,
    pub findings: Vec<Finding>,
    /// The first walk only takes the census; nothing is reported.
    pub(crate) collecting: bool,
    /// The census of the first walk (empty during it), and this walk's own.
    pub(crate) known: Census,
    pub(crate) census: Census,
    pub(crate) depth: usize,
    pub(crate) too_deep: bool,
    /// Where the next expression is used: the base of an attribute (`bpy` in
    /// `bpy.ops`), a callee, the value of a plain `NAME = value` (an alias), ...
    pub(crate) place: Place,
    /// How many `try` and `with` blocks enclose this point of the current function
    /// (a `yield` there leaves cleanup code for when the generator is collected).
    pub(crate) cleanup_blocks: usize,
    /// Inside a class body (not yet inside one of its methods).
    pub(crate) in_class_body: bool,
    /// The next expression is the value of an annotated class attribute, the one place
    /// `dataclasses.field(...)` may be called.
    pub(crate) field_default: bool,
    /// The call being visited is that value.
    pub(crate) field_call: bool,
    /// For each enclosing method: the names its private-attribute access may go
    /// through (its first parameter; `other` in dunder methods).
    pub(crate) receivers: Vec<Vec<String>>,
}

impl<'a> Analyzer<'a> {
    /// The census walk.
    pub fn collector(source: &'a str, map: &'a SourceMap, policy: &'a Policy) -> Self {
        Self::with(source, map, policy, true, Census::default())
    }

    /// The judging walk, with the census of the first.
    pub fn judge(source: &'a str, map: &'a SourceMap, policy: &'a Policy, known: Census) -> Self {
        Self::with(source, map, policy, false, known)
    }

    fn with(source: &'a str, map: &'a SourceMap, policy: &'a Policy, collecting: bool, known: Census) -> Self {
        let census = Census { aliases: known.aliases.clone(), ..Census::default() };
        Analyzer {
            source,
            map,
            policy,
            findings: Vec::new(),
            collecting,
            known,
            census,
            depth: 0,
            too_deep: false,
            place: Place::Value,
            cleanup_blocks: 0,
            in_class_body: false,
            field_default: false,
            field_call: false,
            receivers: Vec::new(),
        }
    }

    pub fn into_census(self) -> Census {
        self.census
    }

    pub fn report(&mut self, rule: Rule, at: usize, message: String) {
        if self.collecting || self.findings.len() >= MAX_FINDINGS || self.findings.iter().any(|f| f.rule == rule && f.message == message) {
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
                if f.is_async {
                    self.unsupported(at, "async code");
                }
                f.decorator_list.iter().for_each(|d| self.expr(&d.expression));
                self.binding(f.name.as_str(), at, Bind::Function);
                if !f.decorator_list.is_empty() {
                    self.census.decorated.insert(nfkc(f.name.as_str()).into());
                }
                self.parameters(&f.parameters, at);
                self.opt(f.returns.as_deref());
                if f.type_params.is_some() {
                    self.unsupported(at, "type parameters (Python 3.12)");
                }
                let receivers = if self.in_class_body { method_receivers(f) } else { Vec::new() };
                let was_class_body = std::mem::replace(&mut self.in_class_body, false);
                let outer_cleanup = std::mem::take(&mut self.cleanup_blocks);
                self.receivers.push(receivers);
                self.stmts(&f.body);
                self.receivers.pop();
                self.cleanup_blocks = outer_cleanup;
                self.in_class_body = was_class_body;
            }
            Stmt::ClassDef(c) => {
                c.decorator_list.iter().for_each(|d| self.expr(&d.expression));
                self.binding(c.name.as_str(), at, Bind::Class);
                let (bases, keywords) = c.arguments.as_deref().map_or((&[][..], &[][..]), |a| (&a.args[..], &a.keywords[..]));
                self.exprs(bases);
                for base in bases {
                    self.judge_base(base, at);
                    if let Some(what) = self.blender_base(base) {
                        self.report(Rule::BlenderPythonClass, at, format!("a subclass of {what} inherits Blender's Python methods (which evaluate strings and write files) and only works registered, which scripts may not do"));
                    }
                }
                if bases.iter().any(|b| self.is_metaclass(b)) {
                    self.report(Rule::DynamicAttribute, at, "a metaclass (a subclass of `type`) controls how attributes and patterns are looked up".into());
                }
                for k in keywords {
                    if k.arg.is_none() {
                        self.report(Rule::DynamicAttribute, at, "`**` in a class statement hides which options (a metaclass) the class gets".into());
                    }
                    self.keyword(k, at);
                }
                if c.type_params.is_some() {
                    self.unsupported(at, "type parameters (Python 3.12)");
                }
                let was_class_body = std::mem::replace(&mut self.in_class_body, true);
                let outer_cleanup = std::mem::take(&mut self.cleanup_blocks);
                self.stmts(&c.body);
                self.cleanup_blocks = outer_cleanup;
                self.in_class_body = was_class_body;
            }
            Stmt::Return(r) => self.opt(r.value.as_deref()),
            Stmt::Delete(d) => self.exprs(&d.targets),
            Stmt::Assign(a) => {
                self.exprs(&a.targets);
                let plain = a.targets.iter().all(|t| matches!(t, Expr::Name(_)));
                self.expr_at(&a.value, if plain { Place::AliasValue } else { Place::Value });
                if plain {
                    self.track_alias(&a.targets, &a.value);
                    if self.collecting {
                        self.track_node_names(&a.targets, &a.value);
                        if !self.resolve(&a.value).is_empty() {
                            a.targets.iter().for_each(|t| self.note_module_binding(t));
                        }
                    }
                }
                if let [Expr::Name(n)] = a.targets.as_slice() {
                    if self.depth == 1
                        && let Some(text) = literal_str(&a.value)
                    {
                        self.census.str_consts.insert(nfkc(n.id.as_str()).into(), text.to_string());
                    }
                    if self.collecting {
                        self.track_collection(n.id.as_str(), &a.value);
                        if self.is_class_handle(&a.value) {
                            self.census.type_handles.insert(nfkc(n.id.as_str()).into());
                        }
                        if matches!(&*a.value, Expr::Call(c) if crate::classes::is_type_call(c)) {
                            self.census.type_of.insert(nfkc(n.id.as_str()).into());
                        }
                    }
                }
            }
            Stmt::AugAssign(a) => {
                self.expr(&a.target);
                self.expr(&a.value);
            }
            Stmt::AnnAssign(a) => {
                self.expr(&a.target);
                self.expr(&a.annotation);
                self.field_default = self.in_class_body;
                self.opt(a.value.as_deref());
                self.field_default = false;
            }
            Stmt::For(f) => {
                if f.is_async {
                    self.unsupported(at, "async code");
                }
                self.loop_header(&f.target, &f.iter);
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
                for clause in &i.elif_else_clauses {
                    self.opt(clause.test.as_ref());
                    self.stmts(&clause.body);
                }
            }
            Stmt::With(w) => {
                if w.is_async {
                    self.unsupported(at, "async code");
                }
                for item in &w.items {
                    self.expr(&item.context_expr);
                    self.opt(item.optional_vars.as_deref());
                }
                self.cleanup_blocks += 1;
                self.stmts(&w.body);
                self.cleanup_blocks -= 1;
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
            Stmt::Try(t) => {
                self.cleanup_blocks += 1;
                self.try_parts(&t.body, &t.handlers, &t.orelse, &t.finalbody);
                self.cleanup_blocks -= 1;
            }
            Stmt::Assert(a) => {
                self.expr(&a.test);
                self.opt(a.msg.as_deref());
            }
            Stmt::Import(i) => crate::imports::import(self, i, at),
            Stmt::ImportFrom(i) => crate::imports::import_from(self, i, at),
            Stmt::Global(g) => g.names.iter().for_each(|n| self.binding(n.as_str(), at, Bind::Declaration)),
            Stmt::Nonlocal(n) => n.names.iter().for_each(|n| self.binding(n.as_str(), at, Bind::Declaration)),
            Stmt::Expr(e) => self.expr(&e.value),
            Stmt::Pass(_) | Stmt::Break(_) | Stmt::Continue(_) => {}
            Stmt::TypeAlias(_) => self.unsupported(at, "the `type` statement (Python 3.12)"),
            Stmt::IpyEscapeCommand(_) => self.unsupported(at, "IPython escape commands"),
        }
    }

    fn try_parts(&mut self, body: &[Stmt], handlers: &[ast::ExceptHandler], orelse: &[Stmt], finalbody: &[Stmt]) {
        self.stmts(body);
        for h in handlers {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            let at = h.range.start().into();
            self.opt(h.type_.as_deref());
            if let Some(n) = &h.name {
                self.binding(n.as_str(), at, Bind::Other);
            }
            self.stmts(&h.body);
        }
        self.stmts(orelse);
        self.stmts(finalbody);
    }

    pub fn unsupported(&mut self, at: usize, what: &str) {
        self.report(Rule::UnsupportedSyntax, at, format!("{what} is not supported by the checker"));
    }

    fn parameters(&mut self, params: &ast::Parameters, at: usize) {
        for p in params.posonlyargs.iter().chain(&params.args).chain(&params.kwonlyargs) {
            self.binding(p.parameter.name.as_str(), at, Bind::Parameter);
            self.opt(p.parameter.annotation.as_deref());
            self.opt(p.default.as_deref());
        }
        for p in params.vararg.iter().chain(&params.kwarg) {
            self.binding(p.name.as_str(), at, Bind::Parameter);
            self.opt(p.annotation.as_deref());
        }
    }

    pub fn keyword(&mut self, k: &ast::Keyword, at: usize) {
        if let Some(name) = &k.arg {
            let name = nfkc(name.as_str());
            if names::is_dunder(&name) {
                self.report(Rule::DunderName, at, format!("the keyword `{name}=` sets interpreter internals"));
            }
            if name == "metaclass" {
                self.report(Rule::DynamicAttribute, at, "a metaclass controls how attributes and patterns are looked up".into());
            }
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
        let place = std::mem::take(&mut self.place);
        // Only the annotated value itself may be the `field(...)` call, not a call
        // inside it (`(F := field())` would keep a handle on the Field).
        self.field_call = std::mem::take(&mut self.field_default) && matches!(e, Expr::Call(_));
        if self.enter(at) {
            let loads = match e {
                Expr::Name(n) => n.ctx == ExprContext::Load,
                Expr::Attribute(a) => a.ctx == ExprContext::Load,
                Expr::Call(_) => true,
                _ => false,
            };
            if loads {
                if !matches!(place, Place::AttributeBase | Place::Callee | Place::AliasValue) {
                    self.check_escape(e, at);
                }
                self.check_handle(e, place, at);
            }
            self.expr_inner(e, at);
        }
        self.depth -= 1;
    }

    /// Visit `e` as the base of an attribute (`bpy` in `bpy.ops`), where a module
    /// value is being used by name rather than passed around.
    pub fn expr_as_base(&mut self, e: &Expr) {
        self.expr_at(e, Place::AttributeBase);
    }

    /// Visit `e` used at `place` (`handles.rs`).
    pub fn expr_at(&mut self, e: &Expr, place: Place) {
        self.place = place;
        self.expr(e);
    }

    fn expr_inner(&mut self, e: &Expr, at: usize) {
        match e {
            Expr::BoolOp(b) => self.exprs(&b.values),
            Expr::Named(n) => {
                self.expr(&n.target);
                self.expr(&n.value);
            }
            Expr::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            Expr::UnaryOp(u) => self.expr(&u.operand),
            Expr::Lambda(l) => {
                if let Some(params) = &l.parameters {
                    self.parameters(params, at);
                }
                let outer_cleanup = std::mem::take(&mut self.cleanup_blocks);
                self.expr(&l.body);
                self.cleanup_blocks = outer_cleanup;
            }
            Expr::If(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            Expr::Dict(d) => {
                for item in &d.items {
                    self.opt(item.key.as_ref());
                    self.expr(&item.value);
                }
            }
            Expr::Set(s) => self.exprs(&s.elts),
            Expr::ListComp(c) => self.comprehension(&[&c.elt], &c.generators),
            Expr::SetComp(c) => self.comprehension(&[&c.elt], &c.generators),
            Expr::Generator(c) => self.comprehension(&[&c.elt], &c.generators),
            Expr::DictComp(c) => self.comprehension(&[&c.key, &c.value], &c.generators),
            Expr::Await(_) => self.unsupported(at, "await"),
            Expr::Yield(y) => {
                self.yield_in_cleanup(at);
                self.opt(y.value.as_deref());
            }
            Expr::YieldFrom(y) => {
                self.yield_in_cleanup(at);
                self.expr(&y.value);
            }
            Expr::Compare(c) => {
                if self.collecting {
                    self.note_safe_reads_in(e);
                }
                self.expr(&c.left);
                // Only the last operand of `k in X` is merely searched: in a chain
                // (`a in X in b`) Python also hands `X` itself to `b.__contains__`.
                let contained = matches!(c.ops.last(), Some(ast::CmpOp::In | ast::CmpOp::NotIn));
                for (i, operand) in c.comparators.iter().enumerate() {
                    let last = i + 1 == c.comparators.len();
                    self.expr_at(operand, if last && contained { Place::Contained } else { Place::Value });
                }
            }
            Expr::Call(c) => {
                if self.collecting {
                    self.note_safe_reads_in(e);
                }
                crate::calls::call(self, c, at)
            }
            Expr::FString(f) => {
                for part in &f.value {
                    match part {
                        ast::FStringPart::Literal(l) => self.string_constant(&l.value, l.range.start().into()),
                        ast::FStringPart::FString(f) => self.interpolated(&f.elements),
                    }
                }
            }
            Expr::TString(_) => self.unsupported(at, "template strings (Python 3.14)"),
            Expr::StringLiteral(s) => self.string_constant(s.value.to_str(), at),
            Expr::BytesLiteral(_) | Expr::NumberLiteral(_) | Expr::BooleanLiteral(_) | Expr::NoneLiteral(_) | Expr::EllipsisLiteral(_) => {}
            Expr::IpyEscapeCommand(_) => self.unsupported(at, "IPython escape commands"),
            Expr::Attribute(a) => {
                self.expr_as_base(&a.value);
                let store = !matches!(a.ctx, ExprContext::Load);
                if store && self.is_class_handle(&a.value) {
                    self.report(Rule::BlenderPersistence, at, format!("setting `.{}` on a class reached by value (`type(x)`, an element of a literal) changes that class for everything else running in Blender", a.attr.as_str()));
                }
                self.attribute(&a.value, a.attr.as_str(), store, at);
            }
            Expr::Subscript(s) => {
                if s.ctx == ExprContext::Load && self.collecting {
                    self.note_safe_read(&s.value);
                }
                if s.ctx != ExprContext::Load {
                    for path in self.resolve(&s.value) {
                        if blender::changes_module_state(&path) {
                            self.report(Rule::BlenderPersistence, at, format!("changing `{}[...]` changes a module's state for everything else running in Blender", path.join(".")));
                        }
                    }
                }
                self.expr_at(&s.value, Place::SubscriptBase);
                self.expr(&s.slice);
            }
            // `[*x]`, `f(*x)`: the value is iterated, not handed over.
            Expr::Starred(s) => self.expr_at(&s.value, Place::Iterated),
            Expr::Name(n) => match n.ctx {
                ExprContext::Load => self.name(n.id.as_str(), at),
                _ => self.binding(n.id.as_str(), at, Bind::Other),
            },
            Expr::List(l) => self.exprs(&l.elts),
            Expr::Tuple(t) => self.exprs(&t.elts),
            Expr::Slice(s) => {
                self.opt(s.lower.as_deref());
                self.opt(s.upper.as_deref());
                self.opt(s.step.as_deref());
            }
        }
    }

    /// The parts of an f-string (or of a format spec inside one): literal text is
    /// judged like a string constant, each replacement field like any expression.
    fn interpolated(&mut self, elements: &InterpolatedStringElements) {
        for element in elements.iter() {
            match element {
                InterpolatedStringElement::Literal(l) => self.string_constant(&l.value, l.range.start().into()),
                InterpolatedStringElement::Interpolation(i) => {
                    self.expr(&i.expression);
                    if let Some(spec) = &i.format_spec {
                        self.interpolated(&spec.elements);
                    }
                }
            }
        }
    }

    /// A string constant that spells a dunder name can hand it to reflection; one that
    /// names a file-reading or file-writing node type creates that node.
    fn string_constant(&mut self, text: &str, at: usize) {
        if blender::is_file_node_type(text) {
            self.report(Rule::BlenderFileAccess, at, format!("the node type \"{text}\" reads or writes files at a path of the script's choosing"));
        }
        let text = nfkc(text);
        if names::is_dunder(&text) && text != "__main__" && is_identifier(&text) {
            self.report(Rule::DunderName, at, format!("the string \"{text}\" names interpreter internals (reflection can reach them through it)"));
        }
    }

    /// `for TARGET in ITER`, in a statement or a comprehension.
    fn loop_header(&mut self, target: &Expr, iter: &Expr) {
        if self.collecting {
            self.track_loop(target, iter);
            self.note_safe_read(iter);
            if self.holds_module_values(iter) {
                for name in crate::classes::target_names(target) {
                    self.census.type_handles.insert(nfkc(name).into());
                }
            }
        }
        self.expr(target);
        self.expr_at(iter, Place::Iterated);
    }

    fn comprehension(&mut self, elts: &[&Expr], generators: &[ast::Comprehension]) {
        for g in generators {
            if g.is_async {
                self.unsupported(g.target.range().start().into(), "async comprehensions");
            }
            self.loop_header(&g.target, &g.iter);
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
                    self.binding(rest.as_str(), at, Bind::Other);
                }
            }
            Pattern::MatchClass(c) => {
                self.expr(&c.cls);
                c.arguments.patterns.iter().for_each(|p| self.pattern(p));
                // `case C(attr=...)` reads `subject.attr`: the same checks as an attribute.
                for k in &c.arguments.keywords {
                    self.attribute(&c.cls, k.attr.as_str(), false, at);
                    self.pattern(&k.pattern);
                }
            }
            Pattern::MatchStar(s) => {
                if let Some(n) = &s.name {
                    self.binding(n.as_str(), at, Bind::Other);
                }
            }
            Pattern::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p);
                }
                if let Some(n) = &a.name {
                    self.binding(n.as_str(), at, Bind::Other);
                }
            }
            Pattern::MatchOr(o) => o.patterns.iter().for_each(|p| self.pattern(p)),
        }
        self.depth -= 1;
    }

    pub fn policy(&self) -> &Policy {
        self.policy
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bind {
    Function,
    Class,
    Parameter,
    /// `global` / `nonlocal`: declares, binds nothing.
    Declaration,
    Other,
}

fn is_identifier(s: &str) -> bool {
    s.chars().all(|c| c == '_' || c.is_alphanumeric())
}

/// A method's receivers: its first parameter (`self`, `cls`), and `other` in dunder
/// methods (`__eq__(self, other)`).
fn method_receivers(f: &ast::StmtFunctionDef) -> Vec<String> {
    let params: Vec<String> = f.parameters.posonlyargs.iter().chain(&f.parameters.args).map(|p| nfkc(p.parameter.name.as_str()).into()).collect();
    let is_static = f.decorator_list.iter().any(|d| matches!(&d.expression, Expr::Name(n) if n.id.as_str() == "staticmethod"));
    let mut receivers: Vec<String> = if is_static { Vec::new() } else { params.first().cloned().into_iter().collect() };
    if names::is_dunder(f.name.as_str()) && params.iter().any(|p| p == "other") {
        receivers.push("other".into());
    }
    receivers
}

pub fn route_kind(rule: Rule) -> &'static str {
    match rule {
        Rule::BlenderCodeExecution => "running Python",
        Rule::BlenderPersistence => "code that outlives the script",
        Rule::BlenderPythonClass => "Blender's Python-defined classes",
        _ => "files on disk",
    }
}

/// A string constant's text, if `e` is one.
pub fn literal_str(e: &Expr) -> Option<&str> {
    match e {
        Expr::StringLiteral(s) => Some(s.value.to_str()),
        _ => None,
    }
}
