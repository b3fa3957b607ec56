//! Expands the top-level `(define NAME body...)` macros of a rule file the way Zillions does.
//!
//! # The splicing rule
//!
//! A use is a list whose head is the name of a macro: `(NAME arg1 arg2 ...)`. The whole use is
//! replaced by the *sequence* of the define's body forms, spliced into the enclosing list, with
//! `$k` replaced by the k-th argument. So
//!
//! - `(define step ($1 (verify not-friend?) add))` has one body form, a list, and `(step n)`
//!   inside `(moves ...)` becomes the single move `(n (verify not-friend?) add)`;
//! - `(define check-platform mark down (verify not-empty?) back)` (platform-chess.zrf) has four
//!   body forms, and `(check-platform)` inside a move becomes those four instructions in place;
//! - the official Zillions Chess.zrf writes `(define Board-Definitions (image ...) (grid ...)
//!   (zone ...) ...)` and uses it as `(board (Board-Definitions))`, and
//!   `(define Pawn-add (if ... (add Knight Bishop Rook Queen) else add))` used as `(Pawn-add)`
//!   inside a move: both only work if the body forms are spliced in.
//!
//! This is also what the two independent implementations read for this crate do: Dagaz's
//! `z2j` converter copies every item after the name (`utils/z2j/.../model/Library.java`,
//! `BODY_XP = "*[position() > 2]"`), and Polygamo inserts the body's tokens into the token stream
//! (`PolygamoLib/Poly.Compiler/Parser.cs`, `ExpandMacro`).
//!
//! # Parameters
//!
//! - An atom that is exactly `$k` (k ≥ 1) is replaced by the k-th argument, whatever it is
//!   (atom, string or list). The argument keeps its own span and origin.
//! - `$k` inside a longer atom or inside a string is pasted as text: shatranj.zrf defines
//!   `(define d (piece (name D$1) (image White "images/dice/$1.bmp" ...)))` and uses `(d 1)`,
//!   giving the piece `D1` and the image `"images/dice/1.bmp"`. The text of an atom argument is
//!   its word, of a string argument its contents; a list cannot be pasted into an atom (an error)
//!   but is pasted into a string as its printed text.
//! - A parameter with no matching argument (`$2` in a use with one argument) becomes *nothing*:
//!   a whole-atom `$2` disappears from the list, and `D$2` becomes `D`. Extra arguments are
//!   ignored. This is a decision, not a documented Zillions rule: the reachable Zillions material
//!   does not say, and both re-implementations leave the literal `$2` in place (Dagaz's
//!   `Environment.getValue` returns an unbound name unchanged; Polygamo keeps the token), where
//!   it later fails as an unknown word. Dropping it lets a macro take optional trailing
//!   arguments and makes a leftover `$k` impossible.
//! - `$0`, and a `$` not followed by a digit, are ordinary text.
//!
//! # Expansion order and limits
//!
//! Arguments are expanded first, in the caller's context, then substituted; the body is then
//! expanded again, so macros may use other macros, and a macro may be used before the define
//! that creates it (all top-level defines are collected first). A define is only recognised at
//! the top level. When a name is defined twice, a use takes the closest definition before the
//! top-level form it occurs in, or the first definition if there is none before it (what a
//! one-pass preprocessor that also allowed forward uses would do).
//!
//! A macro that is used inside its own expansion is an error ("macro 'x' expands into itself"),
//! as is a chain of more than [`MAX_EXPANSION_DEPTH`] nested expansions, an output of more
//! than [`MAX_EXPANDED_NODES`] nodes or of more than [`MAX_EXPANDED_BYTES`] bytes of words and
//! strings (a word pasted from long arguments counts as one node but may be long), so bad input
//! gives a located error, never a hang, an exhausted memory or a stack overflow. Nodes copied from a macro body carry an [`Expansion`] saying which use produced
//! them, so later layers can say "in macro 'slide' used at 12:10".
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::reader::{line_col, parse, Expansion, Sexp, SexpKind, ZrfError};

/// Most macro expansions that may be active inside one another.
pub const MAX_EXPANSION_DEPTH: usize = 64;

/// Most nodes the expansion of one file may produce (stops exponential blow-ups).
pub const MAX_EXPANDED_NODES: usize = 1_000_000;

/// Most bytes of words and strings the expansion of one file may produce, counting every copy.
pub const MAX_EXPANDED_BYTES: usize = 16 * 1024 * 1024;

/// Most list levels the expanded tree may nest, and most recursion levels the expander uses.
pub const MAX_EXPANDED_NESTING: usize = 400;

/// One `(define NAME body...)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Macro {
    /// The name as written.
    pub name: String,
    /// Span of the name in the define.
    pub name_span: Range<usize>,
    /// The body forms, unexpanded, in order.
    pub body: Vec<Sexp>,
    /// Span of the whole `(define ...)` form.
    pub span: Range<usize>,
}

impl Macro {
    /// The highest `$k` the body mentions (0 when it takes no arguments).
    pub fn arity(&self) -> usize {
        let mut highest = 0;
        for form in &self.body {
            form.walk(&mut |node| {
                if let Some(text) = node.text() {
                    for (_, k) in params(text) {
                        highest = highest.max(k);
                    }
                }
            });
        }
        highest
    }
}

/// A rule file after macro expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZrfFile {
    /// Every top-level form except the defines, in source order, fully expanded: `(game ...)`,
    /// `(variant ...)`, `(version ...)` and anything else.
    pub forms: Vec<Sexp>,
    /// The macros by name, in order of first definition; for a name defined more than once,
    /// the last definition.
    pub macros: IndexMap<String, Macro>,
}

impl ZrfFile {
    /// The top-level forms whose head is `keyword` (ignoring ASCII case), in order.
    pub fn forms_named<'a>(&'a self, keyword: &'a str) -> impl Iterator<Item = &'a Sexp> + 'a {
        self.forms.iter().filter(move |form| form.is_form(keyword))
    }

    /// The `(game ...)` form, if there is one.
    pub fn game(&self) -> Option<&Sexp> {
        self.forms_named("game").next()
    }

    /// The `(variant ...)` forms, in order.
    pub fn variants(&self) -> impl Iterator<Item = &Sexp> + '_ {
        self.forms_named("variant")
    }
}

/// Reads a whole rule file and expands its macros.
pub fn read(text: &str) -> Result<ZrfFile, ZrfError> {
    expand(text, parse(text)?)
}

/// Expands the macros of forms already read from `text` (`text` is needed for the line and
/// column in error messages).
pub fn expand(text: &str, forms: Vec<Sexp>) -> Result<ZrfFile, ZrfError> {
    let mut defs = Vec::new();
    let mut rest = Vec::new();
    for form in forms {
        if form.is_form("define") {
            defs.push(read_define(&form)?);
        } else {
            rest.push(form);
        }
    }

    let mut expander = Expander::new(text, defs);
    let mut out = Vec::new();
    for form in &rest {
        expander.anchor = form.span.start;
        expander.expand_node(form, None, 0, 0, &mut out)?;
    }

    let mut macros = IndexMap::new();
    for def in expander.defs {
        macros.insert(def.name.clone(), def);
    }
    Ok(ZrfFile { forms: out, macros })
}

fn read_define(form: &Sexp) -> Result<Macro, ZrfError> {
    let items = form.as_list().unwrap_or(&[]);
    let Some(name_node) = items.get(1) else {
        return Err(ZrfError::new("'define' needs a macro name", form.span.clone(), "this define has no name"));
    };
    let Some(name) = name_node.as_atom() else {
        return Err(ZrfError::new(
            format!("a macro name must be a word, not {}", describe_kind(name_node)),
            name_node.span.clone(),
            "expected a name here",
        ));
    };
    Ok(Macro {
        name: name.to_string(),
        name_span: name_node.span.clone(),
        body: items.get(2..).unwrap_or(&[]).to_vec(),
        span: form.span.clone(),
    })
}

fn describe_kind(node: &Sexp) -> &'static str {
    match node.kind {
        SexpKind::Atom(_) => "a word",
        SexpKind::Str(_) => "a string",
        SexpKind::List(_) => "a list",
    }
}

/// The arguments of one use and the origin given to every node copied from the body.
struct Env<'e> {
    args: &'e [Vec<Sexp>],
    origin: Arc<Expansion>,
}

impl Env<'_> {
    fn arg(&self, k: usize) -> &[Sexp] {
        k.checked_sub(1).and_then(|i| self.args.get(i)).map_or(&[], Vec::as_slice)
    }
}

struct Expander<'t> {
    text: &'t str,
    defs: Vec<Macro>,
    /// The bodies again, shared, so a use does not copy its macro's body.
    bodies: Vec<Arc<Vec<Sexp>>>,
    exact: HashMap<String, Vec<usize>>,
    folded: HashMap<String, Vec<usize>>,
    /// Start of the top-level form being expanded, to choose among repeated definitions.
    anchor: usize,
    /// Definitions being expanded, outermost first.
    active: Vec<usize>,
    nodes: usize,
    /// Bytes of words and strings produced so far.
    bytes: usize,
}

impl<'t> Expander<'t> {
    fn new(text: &'t str, defs: Vec<Macro>) -> Self {
        let mut exact: HashMap<String, Vec<usize>> = HashMap::new();
        let mut folded: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, def) in defs.iter().enumerate() {
            exact.entry(def.name.clone()).or_default().push(i);
            folded.entry(def.name.to_ascii_lowercase()).or_default().push(i);
        }
        let bodies = defs.iter().map(|def| Arc::new(def.body.clone())).collect();
        Expander { text, defs, bodies, exact, folded, anchor: 0, active: Vec::new(), nodes: 0, bytes: 0 }
    }

    /// The definition a use of `name` refers to: exact spelling first, else any ASCII case.
    fn lookup(&self, name: &str) -> Option<usize> {
        let candidates = self.exact.get(name).or_else(|| self.folded.get(&name.to_ascii_lowercase()))?;
        let before = candidates.iter().rev().find(|&&i| self.defs.get(i).is_some_and(|d| d.span.start < self.anchor));
        before.or_else(|| candidates.first()).copied()
    }

    fn expand_seq(
        &mut self,
        nodes: &[Sexp],
        env: Option<&Env>,
        nesting: usize,
        level: usize,
        out: &mut Vec<Sexp>,
    ) -> Result<(), ZrfError> {
        for node in nodes {
            self.expand_node(node, env, nesting, level, out)?;
        }
        Ok(())
    }

    /// Expands one node into `out` (zero, one or many nodes). `nesting` is the list depth `out`
    /// sits at, `level` the recursion depth of the expander.
    fn expand_node(
        &mut self,
        node: &Sexp,
        env: Option<&Env>,
        nesting: usize,
        level: usize,
        out: &mut Vec<Sexp>,
    ) -> Result<(), ZrfError> {
        let origin = env.map_or_else(|| node.expanded_from.clone(), |env| Some(env.origin.clone()));
        match &node.kind {
            SexpKind::Atom(text) | SexpKind::Str(text) => {
                let is_string = matches!(node.kind, SexpKind::Str(_));
                let Some(env) = env.filter(|_| !params(text).is_empty()) else {
                    self.count(1, text.len(), node, env)?;
                    out.push(Sexp { kind: node.kind.clone(), span: node.span.clone(), expanded_from: origin });
                    return Ok(());
                };
                if let (false, Some(k)) = (is_string, whole_param(text)) {
                    let arg = env.arg(k);
                    let (size, bytes, depth) = measure(arg);
                    self.check_nesting(nesting + depth, node, Some(env))?;
                    self.count(size, bytes, node, Some(env))?;
                    out.extend(arg.iter().cloned());
                    return Ok(());
                }
                let pasted = self.paste(text, is_string, env, node)?;
                if pasted.is_empty() && !is_string {
                    return Ok(()); // only missing parameters: nothing is left of the atom
                }
                self.count(1, pasted.len(), node, Some(env))?;
                let kind = if is_string { SexpKind::Str(pasted) } else { SexpKind::Atom(pasted) };
                out.push(Sexp { kind, span: node.span.clone(), expanded_from: origin });
                Ok(())
            }
            SexpKind::List(items) => {
                self.check_nesting((nesting + 1).max(level + 1), node, env)?;
                if node.is_form("define") {
                    return Err(self.error(
                        "'define' is only allowed at the top level of a file".to_string(),
                        node,
                        "this define is inside another form",
                        env,
                    ));
                }
                if let Some(def) = self.use_of(items, env)? {
                    return self.expand_use(def, node, items, env, origin, nesting, level, out);
                }
                let mut expanded = Vec::with_capacity(items.len());
                self.expand_seq(items, env, nesting + 1, level + 1, &mut expanded)?;
                self.count(1, 0, node, env)?;
                out.push(Sexp { kind: SexpKind::List(expanded), span: node.span.clone(), expanded_from: origin });
                Ok(())
            }
        }
    }

    /// The macro a list uses, if its head (after parameter substitution) names one.
    fn use_of(&self, items: &[Sexp], env: Option<&Env>) -> Result<Option<usize>, ZrfError> {
        let Some(head) = items.first() else { return Ok(None) };
        let Some(text) = head.as_atom() else { return Ok(None) };
        let name = match env {
            Some(env) if !params(text).is_empty() => match whole_param(text) {
                Some(k) => match env.arg(k) {
                    [only] => match only.as_atom() {
                        Some(atom) => atom.to_string(),
                        None => return Ok(None),
                    },
                    _ => return Ok(None),
                },
                None => self.paste(text, false, env, head)?,
            },
            _ => text.to_string(),
        };
        Ok(self.lookup(&name))
    }

    #[allow(clippy::too_many_arguments)]
    fn expand_use(
        &mut self,
        def: usize,
        node: &Sexp,
        items: &[Sexp],
        env: Option<&Env>,
        origin: Option<Arc<Expansion>>,
        nesting: usize,
        level: usize,
        out: &mut Vec<Sexp>,
    ) -> Result<(), ZrfError> {
        let name = self.defs.get(def).map_or_else(String::new, |d| d.name.clone());
        if let Some(first) = self.active.iter().position(|&active| active == def) {
            let mut cycle: Vec<&str> = self
                .active
                .get(first..)
                .unwrap_or(&[])
                .iter()
                .filter_map(|&i| self.defs.get(i))
                .map(|d| d.name.as_str())
                .collect();
            cycle.push(&name);
            return Err(self.error(
                format!("macro '{name}' expands into itself ({})", cycle.join(" → ")),
                node,
                &format!("'{name}' is used again here, inside its own expansion"),
                env,
            ));
        }
        if self.active.len() >= MAX_EXPANSION_DEPTH {
            return Err(self.error(
                format!("macro expansion deeper than {MAX_EXPANSION_DEPTH} levels at macro '{name}'"),
                node,
                "this use is one level too deep",
                env,
            ));
        }

        // Arguments first, in the caller's context; each argument may become several nodes.
        let mut args = Vec::with_capacity(items.len().saturating_sub(1));
        for item in items.get(1..).unwrap_or(&[]) {
            let mut arg = Vec::new();
            self.expand_node(item, env, nesting + 1, level + 1, &mut arg)?;
            args.push(arg);
        }

        let body = self.bodies.get(def).cloned().unwrap_or_default();
        let inner = Env {
            args: &args,
            origin: Arc::new(Expansion { macro_name: name, use_span: node.span.clone(), parent: origin }),
        };
        self.active.push(def);
        let result = self.expand_seq(&body, Some(&inner), nesting, level + 1, out);
        self.active.pop();
        result
    }

    /// Replaces every `$k` of an atom's or string's text by the text of the k-th argument. The
    /// text may not grow past what is left of [`MAX_EXPANDED_BYTES`].
    fn paste(&self, text: &str, is_string: bool, env: &Env, node: &Sexp) -> Result<String, ZrfError> {
        let room = MAX_EXPANDED_BYTES.saturating_sub(self.bytes);
        let mut result = String::with_capacity(text.len().min(room));
        let mut copied = 0;
        for (range, k) in params(text) {
            result.push_str(text.get(copied..range.start).unwrap_or(""));
            copied = range.end;
            let arg = env.arg(k);
            let adds = arg.iter().map(|a| a.text().map_or(1, str::len)).sum::<usize>();
            if result.len().saturating_add(adds) > room {
                return Err(self.too_large(node, Some(env)));
            }
            match arg {
                [] => {}
                [single] if single.text().is_some() => result.push_str(single.text().unwrap_or("")),
                several if is_string => {
                    for (i, item) in several.iter().enumerate() {
                        if i > 0 {
                            result.push(' ');
                        }
                        result.push_str(&item.to_string());
                        if result.len() > room {
                            return Err(self.too_large(node, Some(env)));
                        }
                    }
                }
                _ => {
                    return Err(self.error(
                        format!("argument ${k} is not a single word and cannot be pasted into '{text}'"),
                        node,
                        &format!("'{text}' needs a word for ${k}"),
                        Some(env),
                    ))
                }
            }
        }
        result.push_str(text.get(copied..).unwrap_or(""));
        Ok(result)
    }

    fn count(&mut self, nodes: usize, bytes: usize, node: &Sexp, env: Option<&Env>) -> Result<(), ZrfError> {
        self.nodes = self.nodes.saturating_add(nodes);
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > MAX_EXPANDED_BYTES {
            return Err(self.too_large(node, env));
        }
        if self.nodes > MAX_EXPANDED_NODES {
            return Err(self.error(
                format!("macro expansion produces more than {MAX_EXPANDED_NODES} nodes"),
                node,
                "the expansion grows too large here",
                env,
            ));
        }
        Ok(())
    }

    fn too_large(&self, node: &Sexp, env: Option<&Env>) -> ZrfError {
        self.error(
            format!("macro expansion produces more than {MAX_EXPANDED_BYTES} bytes of words and strings"),
            node,
            "the expansion grows too large here",
            env,
        )
    }

    fn check_nesting(&self, depth: usize, node: &Sexp, env: Option<&Env>) -> Result<(), ZrfError> {
        if depth > MAX_EXPANDED_NESTING {
            return Err(self.error(
                format!("macro expansion nests lists deeper than {MAX_EXPANDED_NESTING} levels"),
                node,
                "the expansion is too deep here",
                env,
            ));
        }
        Ok(())
    }

    /// An error at `node`, with the chain of macro uses it sits in appended to the message.
    fn error(&self, message: String, node: &Sexp, label: &str, env: Option<&Env>) -> ZrfError {
        let chain = env.map(|env| env.origin.as_ref()).or(node.expanded_from.as_deref());
        let message = match chain {
            Some(expansion) => format!("{message}, {}", describe_chain(expansion, self.text)),
            None => message,
        };
        ZrfError::new(message, node.span.clone(), label)
    }
}

/// `in macro 'a' used at L:C, ...`, innermost first, shortened to the three innermost uses and
/// the outermost one when the chain is long.
fn describe_chain(expansion: &Expansion, text: &str) -> String {
    let mut parts = Vec::new();
    let mut cur = Some(expansion);
    while let Some(exp) = cur {
        let (line, col) = line_col(text, exp.use_span.start);
        parts.push(format!("in macro '{}' used at {line}:{col}", exp.macro_name));
        cur = exp.parent.as_deref();
    }
    if parts.len() > 4 {
        let outermost = parts.pop().unwrap_or_default();
        let skipped = parts.len() - 3;
        parts.truncate(3);
        parts.push(format!("... {skipped} more ..."));
        parts.push(outermost);
    }
    parts.join(", ")
}

/// The node count, the bytes of words and strings and the list depth of a sequence of nodes.
fn measure(nodes: &[Sexp]) -> (usize, usize, usize) {
    fn depth(node: &Sexp) -> usize {
        node.as_list().map_or(0, |items| 1 + items.iter().map(depth).max().unwrap_or(0))
    }
    let size = nodes.iter().map(Sexp::node_count).sum();
    let mut bytes = 0usize;
    for node in nodes {
        node.walk(&mut |n| bytes = bytes.saturating_add(n.text().map_or(0, str::len)));
    }
    let deepest = nodes.iter().map(depth).max().unwrap_or(0);
    (size, bytes, deepest)
}

/// The `$k` parameters in a text, as (byte range, k); `$0` and a `$` without digits are not
/// parameters. A number too large to be an argument index still counts (it is never present).
fn params(text: &str) -> Vec<(Range<usize>, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if byte == b'$' {
            let digits = bytes.get(i + 1..).map_or(0, |rest| rest.iter().take_while(|b| b.is_ascii_digit()).count());
            if digits > 0 {
                let number = text.get(i + 1..i + 1 + digits).unwrap_or("");
                let k = number.parse::<usize>().unwrap_or(usize::MAX);
                if k > 0 {
                    found.push((i..i + 1 + digits, k));
                }
                i += 1 + digits;
                continue;
            }
        }
        i += 1;
    }
    found
}

/// `k` when the whole text is one parameter `$k`.
fn whole_param(text: &str) -> Option<usize> {
    match params(text).as_slice() {
        [(range, k)] if range.start == 0 && range.end == text.len() => Some(*k),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(text: &str) -> String {
        let file = read(text).expect("expands");
        file.forms.iter().map(Sexp::to_string).collect::<Vec<_>>().join(" | ")
    }

    fn error(text: &str) -> String {
        read(text).expect_err("fails").render(text)
    }

    #[test]
    fn params_are_found_and_zero_is_text() {
        let found: Vec<_> = params("D$1-$23$0$x$").into_iter().map(|(_, k)| k).collect();
        assert_eq!(found, [1, 23]);
        assert_eq!(whole_param("$2"), Some(2));
        assert_eq!(whole_param("$2a"), None);
        assert_eq!(whole_param("$0"), None);
        assert_eq!(params("$99999999999999999999999").first().map(|p| p.1), Some(usize::MAX));
    }

    #[test]
    fn single_list_body_replaces_the_use() {
        let text = "(define step ($1 (verify not-friend?) add)) (moves (step n) (step ne))";
        assert_eq!(expanded(text), "(moves (n (verify not-friend?) add) (ne (verify not-friend?) add))");
    }

    #[test]
    fn several_body_forms_are_spliced() {
        let text = "(define check mark down (verify not-empty?) back) (moves (n (check) add))";
        assert_eq!(expanded(text), "(moves (n mark down (verify not-empty?) back add))");
    }

    #[test]
    fn empty_body_expands_to_nothing() {
        assert_eq!(expanded("(define nothing) (a (nothing) b)"), "(a b)");
    }

    #[test]
    fn pasting_into_atoms_and_strings() {
        let text = "(define d (piece (name D$1) (image W \"img/$1.bmp\" \"$1$2$1\"))) (game (d 3) (d \"x\" y))";
        assert_eq!(
            expanded(text),
            "(game (piece (name D3) (image W \"img/3.bmp\" \"33\")) (piece (name Dx) (image W \"img/x.bmp\" \"xyx\")))"
        );
    }

    #[test]
    fn list_argument_pasted_into_string_is_printed() {
        assert_eq!(expanded("(define t (title \"[$1]\")) (t (a b))"), "(title \"[(a b)]\")");
    }

    #[test]
    fn list_argument_cannot_be_pasted_into_an_atom() {
        assert_eq!(
            error("(define d (name D$1))\n(d (a b))"),
            "1:17: argument $1 is not a single word and cannot be pasted into 'D$1', in macro 'd' used at 2:1 \
             ('D$1' needs a word for $1)"
        );
    }

    #[test]
    fn missing_arguments_become_nothing() {
        let text = "(define leap ($1 $2 (verify not-friend?) add)) (define n2 (name P$2)) (m (leap n) (n2 x))";
        assert_eq!(expanded(text), "(m (n (verify not-friend?) add) (name P))");
        assert_eq!(expanded("(define only ($2)) (only a)"), "()");
        assert_eq!(expanded("(define s (t \"<$3>\")) (s)"), "(t \"<>\")");
    }

    #[test]
    fn extra_arguments_are_ignored() {
        assert_eq!(expanded("(define one ($1 add)) (one n s e)"), "(n add)");
    }

    #[test]
    fn list_arguments_and_macro_arguments() {
        let text = "(define twice ($1 $1)) (define chk mark n back) (m (twice (verify empty?)) (twice (chk)))";
        assert_eq!(expanded(text), "(m ((verify empty?) (verify empty?)) (mark n back mark n back))");
    }

    #[test]
    fn nested_use_of_the_same_macro_in_arguments_is_not_recursion() {
        assert_eq!(expanded("(define w ($1 x)) (w (w (w a)))"), "(((a x) x) x)");
    }

    #[test]
    fn parameter_as_head_calls_a_macro() {
        assert_eq!(expanded("(define call ($1 e)) (define step ($1 add)) (call step)"), "(e add)");
    }

    #[test]
    fn macros_call_macros_and_may_be_defined_later() {
        let text = "(game (slide n))\n(define slide ($1 (while empty? (go1 $1)) add))\n(define go1 add $1)";
        assert_eq!(expanded(text), "(game (n (while empty? add n) add))");
    }

    #[test]
    fn top_level_uses_splice_into_the_top_level() {
        let file = read("(define two (a) (b)) (two) (version \"2.0\")").expect("expands");
        let shown: Vec<_> = file.forms.iter().map(Sexp::to_string).collect();
        assert_eq!(shown, ["(a)", "(b)", "(version \"2.0\")"]);
        assert_eq!(file.macros.len(), 1);
    }

    #[test]
    fn macro_names_match_exactly_first_then_ignoring_case() {
        assert_eq!(expanded("(define Step ($1 add)) (m (step n) (STEP s))"), "(m (n add) (s add))");
        assert_eq!(expanded("(define a (x)) (define A (y)) (m (a) (A))"), "(m (x) (y))");
    }

    #[test]
    fn redefinition_uses_the_closest_earlier_definition() {
        let text = "(u (k)) (define k one) (v (k)) (define k two) (w (k))";
        assert_eq!(expanded(text), "(u one) | (v one) | (w two)");
        assert_eq!(read(text).expect("expands").macros.get("k").map(|m| m.body[0].to_string()), Some("two".into()));
    }

    #[test]
    fn spans_and_origins() {
        let text = "(define slide ($1 add))\n(moves (slide n))";
        let file = read(text).expect("expands");
        let moves = &file.forms[0];
        let produced = &moves.tail()[0];
        assert_eq!(&text[produced.span.clone()], "($1 add)");
        let origin = produced.expanded_from.as_ref().expect("from a macro");
        assert_eq!(origin.macro_name, "slide");
        assert_eq!(&text[origin.use_span.clone()], "(slide n)");
        assert_eq!(origin.describe(text), "in macro 'slide' used at 2:8");
        // The argument keeps its own span and has no origin; body atoms have the use's origin.
        let items = produced.as_list().expect("list");
        assert_eq!(&text[items[0].span.clone()], "n");
        assert_eq!(items[0].expanded_from, None);
        assert_eq!(&text[items[1].span.clone()], "add");
        assert!(items[1].expanded_from.is_some());
        assert_eq!(moves.expanded_from, None);
    }

    #[test]
    fn nested_origins_chain_to_the_outer_use() {
        let text = "(define inner (x))\n(define outer ((inner)))\n(outer)";
        let file = read(text).expect("expands");
        let wrapper = &file.forms[0];
        let x = &wrapper.as_list().expect("list")[0];
        let origin = x.expanded_from.as_ref().expect("from inner");
        assert_eq!(origin.describe(text), "in macro 'inner' used at 2:16, in macro 'outer' used at 3:1");
    }

    #[test]
    fn recursive_macro_is_an_error() {
        assert_eq!(
            error("(define loop ($1 (loop $1)))\n(moves (loop n))"),
            "1:18: macro 'loop' expands into itself (loop → loop), in macro 'loop' used at 2:8 \
             ('loop' is used again here, inside its own expansion)"
        );
    }

    #[test]
    fn mutually_recursive_macros_are_an_error() {
        let text = "(define ping (pong))\n(define pong (ping))\n(game (ping))";
        assert_eq!(
            error(text),
            "2:14: macro 'ping' expands into itself (ping → pong → ping), in macro 'pong' used at 1:14, \
             in macro 'ping' used at 3:7 ('ping' is used again here, inside its own expansion)"
        );
    }

    #[test]
    fn too_deep_expansion_is_an_error() {
        let mut text = String::new();
        for i in 0..70 {
            text.push_str(&format!("(define m{i} (m{}))\n", i + 1));
        }
        text.push_str("(m0)");
        let err = read(&text).expect_err("too deep");
        assert!(
            err.message
                .starts_with("macro expansion deeper than 64 levels at macro 'm64', in macro 'm63' used at 63:13,"),
            "{}",
            err.message
        );
        assert!(err.message.contains("more ..."), "{}", err.message);
        assert!(err.message.ends_with("in macro 'm0' used at 71:1"), "{}", err.message);
        assert_eq!(line_col(&text, err.span.start), (64, 13));
    }

    #[test]
    fn exponential_blow_up_is_an_error() {
        let mut text = String::from("(define x0 (a b))\n");
        for i in 1..40 {
            text.push_str(&format!("(define x{i} (x{}) (x{}))\n", i - 1, i - 1));
        }
        text.push_str("(x39)");
        let err = read(&text).expect_err("too big");
        assert!(err.message.starts_with("macro expansion produces more than 1000000 nodes"), "{}", err.message);
    }

    /// Issue 20, item 1: a word pasted ten times into itself nine deep would be 10^9 bytes;
    /// it counts as one node, so only a bound in bytes stops it.
    #[test]
    fn pasting_words_into_words_is_bounded_in_bytes() {
        let text = "(define D $1$1$1$1$1$1$1$1$1$1)\n(game (title (D (D (D (D (D (D (D (D (D x)))))))))))\n";
        let err = read(text).expect_err("too large");
        assert!(err.message.starts_with("macro expansion produces more than 16777216 bytes"), "{}", err.message);
        assert!(err.message.contains("in macro 'D' used at"), "{}", err.message);
        // A list argument printed into a string many times is bounded the same way.
        let uses = format!("{}({}){}", "(T ".repeat(6), "x".repeat(100), ")".repeat(6));
        let text = format!("(define S \"{}\")\n(define T $1 $1 $1 $1)\n(game (S {uses}))", "$1".repeat(64));
        let err = read(&text).expect_err("too large");
        assert!(err.message.starts_with("macro expansion produces more than 16777216 bytes"), "{}", err.message);
    }

    #[test]
    fn deep_nesting_through_macros_is_an_error() {
        let mut text = String::new();
        for i in 0..60 {
            text.push_str(&format!("(define w{i} {}(w{}){})\n", "(".repeat(10), i + 1, ")".repeat(10)));
        }
        text.push_str("(define w60 x)\n(w0)");
        let err = read(&text).expect_err("too deep");
        assert!(err.message.starts_with("macro expansion nests lists deeper than 400 levels"), "{}", err.message);
    }

    #[test]
    fn define_errors() {
        assert_eq!(error("(define)"), "1:1: 'define' needs a macro name (this define has no name)");
        assert_eq!(error("(define \"x\" a)"), "1:9: a macro name must be a word, not a string (expected a name here)");
        assert_eq!(error("(define (x) a)"), "1:9: a macro name must be a word, not a list (expected a name here)");
        assert_eq!(
            error("(game\n (define x a))"),
            "2:2: 'define' is only allowed at the top level of a file (this define is inside another form)"
        );
    }

    #[test]
    fn arity_is_the_highest_parameter() {
        let file = read("(define a ($1 $3)) (define b (x)) (define c (\"$2\" D$4))").expect("expands");
        let arities: Vec<_> = file.macros.values().map(Macro::arity).collect();
        assert_eq!(arities, [3, 0, 4]);
    }

    #[test]
    fn dollar_outside_macros_is_left_alone() {
        assert_eq!(expanded("(a $1 \"$2\")"), "(a $1 \"$2\")");
    }
}
