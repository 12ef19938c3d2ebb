//! `#[capability(...)]`: one capability per file, its summary and description taken
//! from the handler's doc comment.
//!
//! ```ignore
//! /// Add a primitive at a location.            <- summary (first paragraph)
//! ///
//! /// Longer text for the schema view.          <- description (the rest)
//! #[capability(key = "scene.create_object", family = "create",
//!              tags = ["add"], aliases = ["create_object"], examples = ["add a cube"],
//!              uses = [CreateObject], cases = cases, output = Created, destructive)]
//! fn create_object(args: Args) -> PackResult<Created> { ... }
//! ```
//!
//! expands to the handler unchanged plus `pub fn capability() -> capstan_sdk::Capability`,
//! which the pack's generated registry (`capstan-pack-build`) collects.

use proc_macro::TokenStream;
use quote::quote;
use syn::parse::Parser;
use syn::{Expr, ExprArray, ExprLit, ItemFn, Lit, LitStr, Meta, Path};

#[derive(Default)]
struct Args {
    key: Option<LitStr>,
    family: Option<LitStr>,
    tags: Vec<LitStr>,
    aliases: Vec<LitStr>,
    examples: Vec<LitStr>,
    uses: Vec<Path>,
    cases: Option<Path>,
    output: Option<Path>,
    destructive: bool,
}

fn strings(value: &Expr) -> syn::Result<Vec<LitStr>> {
    let Expr::Array(ExprArray { elems, .. }) = value else {
        return Err(syn::Error::new_spanned(value, "expected a list of strings: [\"a\", \"b\"]"));
    };
    elems
        .iter()
        .map(|e| match e {
            Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Ok(s.clone()),
            other => Err(syn::Error::new_spanned(other, "expected a string")),
        })
        .collect()
}

fn paths(value: &Expr) -> syn::Result<Vec<Path>> {
    let Expr::Array(ExprArray { elems, .. }) = value else {
        return Err(syn::Error::new_spanned(value, "expected a list of command types: [CreateObject, GetObjectInfo]"));
    };
    elems
        .iter()
        .map(|e| match e {
            Expr::Path(p) => Ok(p.path.clone()),
            other => Err(syn::Error::new_spanned(other, "expected a command type")),
        })
        .collect()
}

fn string(value: &Expr) -> syn::Result<LitStr> {
    match value {
        Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Ok(s.clone()),
        other => Err(syn::Error::new_spanned(other, "expected a string")),
    }
}

fn parse_args(tokens: TokenStream) -> syn::Result<Args> {
    let mut args = Args::default();
    let metas = syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated.parse(tokens)?;
    for meta in metas {
        let name = meta.path().get_ident().map(|i| i.to_string()).unwrap_or_default();
        match (&meta, name.as_str()) {
            (Meta::Path(_), "destructive") => args.destructive = true,
            (Meta::NameValue(nv), "key") => args.key = Some(string(&nv.value)?),
            (Meta::NameValue(nv), "family") => args.family = Some(string(&nv.value)?),
            (Meta::NameValue(nv), "tags") => args.tags = strings(&nv.value)?,
            (Meta::NameValue(nv), "aliases") => args.aliases = strings(&nv.value)?,
            (Meta::NameValue(nv), "examples") => args.examples = strings(&nv.value)?,
            (Meta::NameValue(nv), "uses") => args.uses = paths(&nv.value)?,
            (Meta::NameValue(nv), "output") => match &nv.value {
                Expr::Path(p) => args.output = Some(p.path.clone()),
                other => return Err(syn::Error::new_spanned(other, "output = <a result type that derives JsonSchema>")),
            },
            (Meta::NameValue(nv), "cases") => match &nv.value {
                Expr::Path(p) => args.cases = Some(p.path.clone()),
                other => return Err(syn::Error::new_spanned(other, "cases = <fn() -> Vec<Case>>")),
            },
            _ => {
                return Err(syn::Error::new_spanned(
                    meta,
                    "unknown argument; use key, family, tags, aliases, examples, uses, cases, output, destructive",
                ));
            }
        }
    }
    Ok(args)
}

/// The doc comment as (summary, description): the first paragraph, and the rest.
fn docs(item: &ItemFn) -> (String, String) {
    let lines: Vec<String> = item
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Some(s.value().trim().to_string()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let split = lines.iter().position(|l| l.is_empty()).unwrap_or(lines.len());
    let summary = lines[..split].join(" ");
    let description = lines[split..].iter().skip_while(|l| l.is_empty()).cloned().collect::<Vec<_>>().join("\n");
    (summary, description.trim().to_string())
}

#[proc_macro_attribute]
pub fn capability(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = match parse_args(attr) {
        Ok(a) => a,
        Err(e) => return e.to_compile_error().into(),
    };
    let func = match syn::parse::<ItemFn>(item) {
        Ok(f) => f,
        Err(e) => return e.to_compile_error().into(),
    };
    let (Some(key), Some(family)) = (&args.key, &args.family) else {
        return syn::Error::new_spanned(&func.sig.ident, "#[capability] needs key = \"...\" and family = \"...\"")
            .to_compile_error()
            .into();
    };
    let (summary, description) = docs(&func);
    if summary.is_empty() {
        return syn::Error::new_spanned(&func.sig.ident, "a capability needs a doc comment: its first paragraph is the summary")
            .to_compile_error()
            .into();
    }
    let handler = &func.sig.ident;
    let (tags, aliases, examples, uses) = (&args.tags, &args.aliases, &args.examples, &args.uses);
    let cases = args.cases.as_ref().map(|c| quote! { .cases_from(#c) });
    let destructive = args.destructive.then(|| quote! { .destructive() });
    let output = args.output.as_ref().map(|o| quote! { .output::<#o>() });
    // `output = T` must be what the handler returns, or the declared schema would lie.
    let output_check = args.output.as_ref().map(|o| quote! { let _: fn(_) -> ::capstan_sdk::PackResult<#o> = #handler; });
    quote! {
        #func

        /// This file's capability, for the pack's registry.
        pub fn capability() -> ::capstan_sdk::Capability {
            #output_check
            ::capstan_sdk::Capability::new(#key, #family, #handler)
                .summary(#summary)
                .description(#description)
                .tags(&[#(#tags),*])
                .aliases(&[#(#aliases),*])
                .examples(&[#(#examples),*])
                #(.uses::<#uses>())*
                #cases
                #output
                #destructive
        }
    }
    .into()
}
