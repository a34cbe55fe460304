//! `#[smallscope::api]`: an `impl` block's `pub fn`s become operations.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, ImplItem, ImplItemFn, ItemImpl, LitStr, PathArguments, ReturnType, Token, Type};

/// The attribute's arguments.
#[derive(Default)]
struct ApiArgs {
    name: Option<LitStr>,
    rep_ok: Option<syn::Ident>,
    register: Vec<(LitStr, Type)>,
}

impl Parse for ApiArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut args = ApiArgs::default();
        while !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            match key.to_string().as_str() {
                "name" => {
                    input.parse::<Token![=]>()?;
                    args.name = Some(input.parse()?);
                }
                "rep_ok" => {
                    input.parse::<Token![=]>()?;
                    args.rep_ok = Some(input.parse()?);
                }
                "register" => {
                    let content;
                    syn::parenthesized!(content in input);
                    let entries = Punctuated::<RegisterEntry, Token![,]>::parse_terminated(&content)?;
                    args.register.extend(entries.into_iter().map(|e| (e.name, e.ty)));
                }
                _ => return Err(syn::Error::new(
                    key.span(),
                    "unknown argument: expected `name = \"..\"`, `rep_ok = method` or `register(\"name\" = Type, ..)`",
                )),
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(args)
    }
}

struct RegisterEntry {
    name: LitStr,
    ty: Type,
}

impl Parse for RegisterEntry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name = input.parse()?;
        input.parse::<Token![=]>()?;
        Ok(RegisterEntry { name, ty: input.parse()? })
    }
}

/// Whether `#[smallscope(skip)]` is on the method; strips our attributes either way.
fn take_skip(method: &mut ImplItemFn) -> syn::Result<bool> {
    let mut skip = false;
    let mut error = None;
    method.attrs.retain(|attr| {
        if !attr.path().is_ident("smallscope") {
            return true;
        }
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else {
                Err(meta.error("unknown smallscope attribute: expected `skip`"))
            }
        });
        if let Err(e) = parsed {
            error = Some(e);
        }
        false
    });
    match error {
        Some(e) => Err(e),
        None => Ok(skip),
    }
}

/// The name of the impl's self type (`List` for `impl<B> List<B>`).
fn self_ident(ty: &Type) -> syn::Result<syn::Ident> {
    match ty {
        Type::Path(p) => Ok(p.path.segments.last().expect("non-empty path").ident.clone()),
        _ => Err(syn::Error::new_spanned(ty, "#[smallscope::api] needs an impl of a named type")),
    }
}

/// Whether `ty` is the subject type: `Self` or its own name.
fn is_self(ty: &Type, me: &syn::Ident) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last().expect("non-empty path");
            p.path.segments.len() == 1 && (last.ident == "Self" || last.ident == *me)
        }
        Type::Paren(p) => is_self(&p.elem, me),
        Type::Group(g) => is_self(&g.elem, me),
        _ => false,
    }
}

/// How one parameter is read from its slot.
enum Param {
    Subject(TokenStream),
    Primitive(Type),
    /// A value an earlier call returned: handle type `kind`, by reference or not.
    Handle {
        kind: u8,
        ty: Type,
        by_ref: bool,
    },
}

/// Types whose values only the API hands out: the parameter types that some
/// operation also returns (itself or in `Ok`), other than the subject and
/// the types drawn from domains. Compared as written; numbered in order.
fn handle_types(methods: &[&ImplItemFn], me: &syn::Ident) -> Vec<String> {
    let returned: Vec<String> = methods
        .iter()
        .filter_map(|m| match &m.sig.output {
            ReturnType::Type(_, ty) => Some(result_ok_type(ty).unwrap_or_else(|| (**ty).clone())),
            ReturnType::Default => None,
        })
        .filter(|ty| may_be_handle(ty, me))
        .map(|ty| ty.to_token_stream().to_string())
        .collect();
    let mut handles = Vec::new();
    for method in methods {
        for input in &method.sig.inputs {
            let FnArg::Typed(typed) = input else { continue };
            let ty = match &*typed.ty {
                Type::Reference(r) if r.mutability.is_none() => &*r.elem,
                ty => ty,
            };
            let text = ty.to_token_stream().to_string();
            if may_be_handle(ty, me) && returned.contains(&text) && !handles.contains(&text) {
                handles.push(text);
            }
        }
    }
    handles
}

/// Whether `ty` is a named type other than the subject and those with a domain.
fn may_be_handle(ty: &Type, me: &syn::Ident) -> bool {
    const DOMAINS: [&str; 19] = [
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64", "bool",
        "char", "String", "Option", "Vec",
    ];
    match ty {
        Type::Path(p) if p.qself.is_none() && !is_self(ty, me) => {
            let last = p.path.segments.last().expect("non-empty path");
            !DOMAINS.contains(&last.ident.to_string().as_str())
        }
        _ => false,
    }
}

fn classify_param(ty: &Type, me: &syn::Ident, handles: &[String]) -> Param {
    let (named, by_ref) = match ty {
        Type::Reference(r) if r.mutability.is_none() => (&*r.elem, true),
        ty => (ty, false),
    };
    if let Some(kind) = handles.iter().position(|h| *h == named.to_token_stream().to_string()) {
        return Param::Handle { kind: kind as u8, ty: named.clone(), by_ref };
    }
    match ty {
        Type::Reference(r) if is_self(&r.elem, me) => {
            if r.mutability.is_some() {
                Param::Subject(quote!(::smallscope::api::Access::Mut))
            } else {
                Param::Subject(quote!(::smallscope::api::Access::Ref))
            }
        }
        _ if is_self(ty, me) => Param::Subject(quote!(::smallscope::api::Access::Owned)),
        _ => Param::Primitive(ty.clone()),
    }
}

/// What the method returns, and how to wrap it.
enum Ret {
    Unit,
    Subject,
    /// Any other value; `Some(kind)` when it is a handle a later call may take.
    Value(Option<u8>),
}

fn classify_ret(ty: &Type, me: &syn::Ident, handles: &[String]) -> Ret {
    match ty {
        Type::Tuple(t) if t.elems.is_empty() => Ret::Unit,
        _ if is_self(ty, me) => Ret::Subject,
        _ => Ret::Value(handles.iter().position(|h| *h == ty.to_token_stream().to_string()).map(|k| k as u8)),
    }
}

/// Whether a value of type `ty` equals its own `Debug` rendering read as a
/// Rust literal (see `Operation::returns_literal`). Decided on the written
/// type: an alias or a reference is not one, and is compared by rendering.
fn returns_literal(ty: &Type) -> bool {
    literal_type(ty, true)
}

/// `top`: whether `ty` is the whole return type. `String` and `Option<..>`
/// count only there: inside an `Option`, `Some("a")` reads as an `Option<&str>`.
fn literal_type(ty: &Type, top: bool) -> bool {
    const PLAIN: [&str; 15] =
        ["i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64", "bool"];
    match ty {
        Type::Paren(p) => literal_type(&p.elem, top),
        Type::Group(g) => literal_type(&g.elem, top),
        Type::Reference(r) if r.mutability.is_none() => {
            matches!(&*r.elem, Type::Path(p) if p.qself.is_none() && p.path.is_ident("str"))
        }
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last().expect("non-empty path");
            let name = last.ident.to_string();
            match &last.arguments {
                PathArguments::None => PLAIN.contains(&name.as_str()) || name == "char" || (top && name == "String"),
                PathArguments::AngleBracketed(args) if top && name == "Option" && args.args.len() == 1 => {
                    matches!(args.args.first(), Some(GenericArgument::Type(inner)) if literal_type(inner, false))
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// A type as it is written, for messages (`&'a str`, not `& 'a str`).
fn type_text(ty: &Type) -> String {
    let text = ty.to_token_stream().to_string();
    [("& ", "&"), (" <", "<"), ("< ", "<"), (" >", ">"), (" ,", ","), (" :: ", "::")]
        .iter()
        .fold(text, |text, (from, to)| text.replace(from, to))
}

/// Whether `tokens` name one of `lifetimes`.
fn mentions_lifetime(tokens: TokenStream, lifetimes: &[syn::Ident]) -> bool {
    let mut after_quote = false;
    for token in tokens {
        match token {
            TokenTree::Punct(p) => after_quote = p.as_char() == '\'',
            TokenTree::Ident(ident) if after_quote && lifetimes.contains(&ident) => return true,
            TokenTree::Group(group) if mentions_lifetime(group.stream(), lifetimes) => return true,
            _ => after_quote = false,
        }
    }
    false
}

/// `tokens` with each of `lifetimes` replaced by `'static`.
fn with_static_lifetimes(tokens: TokenStream, lifetimes: &[syn::Ident]) -> TokenStream {
    let mut out = Vec::new();
    let mut after_quote = false;
    for token in tokens {
        match token {
            TokenTree::Ident(ident) if after_quote && lifetimes.contains(&ident) => {
                out.push(TokenTree::Ident(syn::Ident::new("static", ident.span())));
                after_quote = false;
            }
            TokenTree::Group(group) => {
                let mut replaced =
                    proc_macro2::Group::new(group.delimiter(), with_static_lifetimes(group.stream(), lifetimes));
                replaced.set_span(group.span());
                out.push(TokenTree::Group(replaced));
                after_quote = false;
            }
            TokenTree::Punct(p) => {
                after_quote = p.as_char() == '\'';
                out.push(TokenTree::Punct(p));
            }
            other => {
                after_quote = false;
                out.push(other);
            }
        }
    }
    out.into_iter().collect()
}

/// `Some(ok_type)` when `ty` is `Result<T, E>` (by its last path segment).
fn result_ok_type(ty: &Type) -> Option<Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(ok) => Some(ok.clone()),
        _ => None,
    }
}

fn wrap(ret: &Ret, value: TokenStream) -> TokenStream {
    match ret {
        Ret::Unit => quote!({ let _ = #value; ::smallscope::api::Returned::Unit }),
        Ret::Subject => quote!(::smallscope::api::Returned::Subject(#value)),
        // A value without `Debug` (an `impl Iterator`) is not rendered, so not observed.
        Ret::Value(kind) => {
            let handle = match kind {
                Some(kind) => quote!(::core::option::Option::Some(::smallscope::api::HandleValue::new(#kind, __value))),
                None => quote!({
                    let _ = __value;
                    ::core::option::Option::None
                }),
            };
            quote!({
                let __value = #value;
                #[allow(unused_imports)]
                use ::smallscope::api::__private::probe::{NoDebugValue as _, NoInt as _, ViaDebugValue as _, ViaInt as _};
                let __int = (&&::smallscope::api::__private::probe::IntProbe(&__value)).smallscope_int();
                let __rendered = if render {
                    (&&::smallscope::api::__private::probe::DebugProbe(&__value)).smallscope_render()
                } else {
                    ::core::option::Option::None
                };
                ::smallscope::api::Returned::Value { rendered: __rendered, int: __int, handle: #handle }
            })
        }
    }
}

fn ret_kind(ret: &Ret) -> TokenStream {
    match ret {
        Ret::Unit => quote!(::smallscope::api::ReturnKind::Unit),
        Ret::Subject => quote!(::smallscope::api::ReturnKind::Subject),
        Ret::Value(_) => quote!(::smallscope::api::ReturnKind::Value),
    }
}

/// The `Operation` literal for one method; `lifetimes` are the impl's
/// lifetime parameters, which the subject type fixes to `'static`.
fn operation(
    method: &ImplItemFn,
    me: &syn::Ident,
    lifetimes: &[syn::Ident],
    handles: &[String],
) -> syn::Result<TokenStream> {
    let sig = &method.sig;
    if sig.asyncness.is_some() || sig.unsafety.is_some() {
        return Err(syn::Error::new_spanned(
            sig,
            "async and unsafe methods cannot be operations; mark with #[smallscope(skip)]",
        ));
    }
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.generics,
            "generic methods cannot be operations; mark with #[smallscope(skip)]",
        ));
    }
    let name = &sig.ident;
    let name_str = name.to_string();
    let mut kinds = Vec::new();
    let mut reads = Vec::new();
    // `(slot, Primitive::OTHER)` for every primitive slot.
    let mut others = Vec::new();
    let mut receiver = false;
    let slots: Vec<_> = (0..sig.inputs.len()).map(|i| format_ident!("__arg{}", i)).collect();
    for (index, (input, slot)) in sig.inputs.iter().zip(&slots).enumerate() {
        match input {
            FnArg::Receiver(r) => {
                receiver = true;
                if r.reference.is_none() {
                    kinds.push(quote!(::smallscope::api::ParamKind::Subject(::smallscope::api::Access::Owned)));
                    reads.push(quote!(#slot.take_subject()));
                } else if r.mutability.is_some() {
                    kinds.push(quote!(::smallscope::api::ParamKind::Subject(::smallscope::api::Access::Mut)));
                    reads.push(quote!(#slot.subject_mut()));
                } else {
                    kinds.push(quote!(::smallscope::api::ParamKind::Subject(::smallscope::api::Access::Ref)));
                    reads.push(quote!(#slot.subject_ref()));
                }
            }
            FnArg::Typed(typed) => match classify_param(&typed.ty, me, handles) {
                Param::Handle { kind, ty, by_ref } => {
                    kinds.push(quote!(::smallscope::api::ParamKind::Handle { kind: #kind, by_ref: #by_ref }));
                    reads.push(match by_ref {
                        true => quote!(#slot.handle_ref::<#ty>()),
                        false => quote!(#slot.handle::<#ty>()),
                    });
                }
                Param::Subject(access) => {
                    kinds.push(quote!(::smallscope::api::ParamKind::Subject(#access)));
                    let read = match &*typed.ty {
                        Type::Reference(r) if r.mutability.is_some() => quote!(#slot.subject_mut()),
                        Type::Reference(_) => quote!(#slot.subject_ref()),
                        _ => quote!(#slot.take_subject()),
                    };
                    reads.push(read);
                }
                Param::Primitive(ty) => {
                    if mentions_lifetime(ty.to_token_stream(), lifetimes) {
                        return Err(syn::Error::new_spanned(
                            &ty,
                            format!(
                                "parameter type `{}` borrows for the impl's lifetime, but smallscope's arguments \
                                 live only for the call; mark the method with #[smallscope(skip)]",
                                type_text(&ty)
                            ),
                        ));
                    }
                    // Spanned on the type: an unsupported one is reported there.
                    let span = ty.span();
                    kinds.push(quote_spanned!(span=> <#ty as ::smallscope::api::Primitive>::KIND));
                    reads.push(quote_spanned!(span=> <#ty as ::smallscope::api::Primitive>::from_arg(&mut *#slot)));
                    others.push(quote_spanned!(span=> (#index, <#ty as ::smallscope::api::Primitive>::OTHER)));
                }
            },
        }
    }
    let arity = slots.len();
    let call = quote!(Self::#name(#(#reads),*));
    let returns_literal = match &sig.output {
        ReturnType::Default => false,
        ReturnType::Type(_, ty) => returns_literal(&result_ok_type(ty).unwrap_or_else(|| (**ty).clone())),
    };
    let (returns, fallible, body) = match &sig.output {
        ReturnType::Default => (Ret::Unit, false, wrap(&Ret::Unit, call)),
        ReturnType::Type(_, ty) => match result_ok_type(ty) {
            Some(ok) => {
                let ret = classify_ret(&ok, me, handles);
                let ok_body = wrap(&ret, quote!(__ok));
                let body = quote! {
                    match #call {
                        ::core::result::Result::Ok(__ok) => #ok_body,
                        ::core::result::Result::Err(__err) => ::smallscope::api::Returned::misuse(&__err, render),
                    }
                };
                (ret, true, body)
            }
            None => {
                let ret = classify_ret(ty, me, handles);
                let body = wrap(&ret, call);
                (ret, false, body)
            }
        },
    };
    let returns_handle = match returns {
        Ret::Value(Some(kind)) => quote!(::core::option::Option::Some(#kind)),
        _ => quote!(::core::option::Option::None),
    };
    let returns = ret_kind(&returns);
    Ok(quote! {
        ::smallscope::api::Operation {
            name: #name_str,
            receiver: #receiver,
            params: ::std::vec![#(#kinds),*],
            returns: #returns,
            returns_handle: #returns_handle,
            returns_literal: #returns_literal,
            fallible: #fallible,
            others: ::smallscope::api::OtherParam::in_slots(&[#(#others),*]),
            invoke: |__args: &mut [::smallscope::api::Arg<Self>], render: bool| -> ::smallscope::api::Returned<Self> {
                let [#(#slots),*] = <&mut [::smallscope::api::Arg<Self>; #arity]>::try_from(__args)
                    .expect("smallscope: argument count does not match the operation");
                let _ = render;
                #body
            },
        }
    })
}

fn kebab_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn expand(args: TokenStream, mut item: ItemImpl) -> syn::Result<TokenStream> {
    let args: ApiArgs = syn::parse2(args)?;
    if item.trait_.is_some() {
        return Err(syn::Error::new_spanned(
            &item,
            "#[smallscope::api] goes on an inherent impl block, not a trait impl",
        ));
    }
    let me = self_ident(&item.self_ty)?;
    // Lifetime parameters need no `register`: the subject is the type at `'static`.
    let lifetimes: Vec<syn::Ident> = item.generics.lifetimes().map(|l| l.lifetime.ident.clone()).collect();
    let generic = item.generics.type_params().next().is_some() || item.generics.const_params().next().is_some();
    let mut rep_ok_found = false;
    let mut kept_at = Vec::new();
    for (at, impl_item) in item.items.iter_mut().enumerate() {
        let ImplItem::Fn(method) = impl_item else {
            continue;
        };
        let skip = take_skip(method)?;
        if args.rep_ok.as_ref().is_some_and(|r| *r == method.sig.ident) {
            rep_ok_found = true;
            continue;
        }
        if skip || !matches!(method.vis, syn::Visibility::Public(_)) {
            continue;
        }
        kept_at.push(at);
    }
    let kept: Vec<&ImplItemFn> = kept_at
        .iter()
        .filter_map(|&at| match &item.items[at] {
            ImplItem::Fn(method) => Some(method),
            _ => None,
        })
        .collect();
    let handles = handle_types(&kept, &me);
    let operations =
        kept.iter().map(|method| operation(method, &me, &lifetimes, &handles)).collect::<syn::Result<Vec<_>>>()?;
    let rep_ok = match &args.rep_ok {
        Some(method) => quote! {
            const HAS_REP_OK: bool = true;
            const REP_OK_METHOD: ::core::option::Option<&'static str> =
                ::core::option::Option::Some(::core::stringify!(#method));
            fn rep_ok(&self) -> ::core::option::Option<bool> {
                ::core::option::Option::Some(Self::#method(self))
            }
        },
        None => quote!(),
    };
    let mut checks = quote!();
    if let Some(method) = &args.rep_ok {
        if !rep_ok_found {
            // Not in this block: make sure it exists with the right signature elsewhere.
            checks = quote!(const _: fn(&#me) -> bool = |s| #me::#method(s););
            if !item.generics.params.is_empty() {
                checks = quote!();
            }
        }
    }
    // The subject impl keeps the type and const parameters; lifetimes become `'static`.
    let mut subject_generics = item.generics.clone();
    subject_generics.params =
        subject_generics.params.into_iter().filter(|p| !matches!(p, syn::GenericParam::Lifetime(_))).collect();
    let (impl_generics, _, where_clause) = subject_generics.split_for_impl();
    let where_clause = with_static_lifetimes(where_clause.to_token_stream(), &lifetimes);
    let self_ty: Type = syn::parse2(with_static_lifetimes(item.self_ty.to_token_stream(), &lifetimes))?;
    let self_ty = &self_ty;
    let registrations: Vec<TokenStream> = if args.register.is_empty() {
        if generic {
            return Err(syn::Error::new(
                Span::call_site(),
                "an impl generic over types or constants needs `register(\"name\" = Type<..>, ..)` to name its \
                 instantiations",
            ));
        }
        let name = args.name.as_ref().map(|n| n.value()).unwrap_or_else(|| kebab_case(&me.to_string()));
        vec![quote!(::smallscope::api::__private::inventory::submit! {
            ::smallscope::api::Registration::new::<#self_ty>(#name)
        })]
    } else {
        if args.name.is_some() {
            return Err(syn::Error::new(Span::call_site(), "use either `name` or `register(..)`, not both"));
        }
        args.register
            .iter()
            .map(|(name, ty)| {
                quote!(::smallscope::api::__private::inventory::submit! {
                    ::smallscope::api::Registration::new::<#ty>(#name)
                })
            })
            .collect()
    };
    let concrete: Vec<&Type> =
        if args.register.is_empty() { vec![self_ty] } else { args.register.iter().map(|(_, ty)| ty).collect() };
    let std_traits: Vec<TokenStream> = concrete.iter().map(|ty| std_traits_impl(ty)).collect();
    let item_tokens = item.to_token_stream();
    Ok(quote! {
        #item_tokens

        impl #impl_generics ::smallscope::api::Subject for #self_ty #where_clause {
            fn operations() -> ::std::vec::Vec<::smallscope::api::Operation<Self>> {
                ::std::vec![#(#operations),*]
            }

            #rep_ok

            fn try_clone(&self) -> ::core::option::Option<Self> {
                #[allow(unused_imports)]
                use ::smallscope::api::__private::probe::{NoClone as _, ViaClone as _};
                (&&::smallscope::api::__private::probe::Probe::<Self>::new()).clone_fn().map(|clone| clone(self))
            }
        }

        #checks
        #(#registrations)*
        #(#std_traits)*
    })
}

/// `StdTraits` for one concrete type, answered by autoref specialization
/// (which only works where the type is concrete, not in a generic impl).
fn std_traits_impl(ty: &Type) -> TokenStream {
    quote! {
        impl ::smallscope::api::StdTraits for #ty {
            fn std_traits() -> ::smallscope::api::StdTraitTable<Self> {
                #[allow(unused_imports)]
                use ::smallscope::api::__private::probe::*;
                let probe = &&Probe::<Self>::new();
                ::smallscope::api::StdTraitTable {
                    clone: probe.clone_fn(),
                    partial_eq: probe.partial_eq_fn(),
                    is_eq: probe.is_eq(),
                    hash: probe.hash_fn(),
                    partial_ord: probe.partial_ord_fn(),
                    ord: probe.ord_fn(),
                    debug: probe.debug_fn(),
                }
            }
        }
    }
}
