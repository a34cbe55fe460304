//! `#[derive(Heap)]`.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{format_ident, quote, ToTokens};
use syn::{parse_quote, Data, DeriveInput, Fields, LitStr};

/// What `#[heap(..)]` says about one field.
#[derive(Default)]
struct FieldAttrs {
    skip: bool,
    omit: bool,
    arena: bool,
    index: Option<LitStr>,
    /// A module with `visit` and `collect_classes` for a type derive cannot see into.
    with: Option<syn::Path>,
}

fn field_attrs(field: &syn::Field) -> syn::Result<FieldAttrs> {
    let mut attrs = FieldAttrs::default();
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("heap")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                attrs.skip = true;
            } else if meta.path.is_ident("omit") {
                attrs.omit = true;
            } else if meta.path.is_ident("arena") {
                attrs.arena = true;
            } else if meta.path.is_ident("index") {
                attrs.index = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("with") {
                let value = meta.value()?;
                // `with = module` or, as serde spells it, `with = "module"`.
                attrs.with = Some(match value.parse::<Option<LitStr>>()? {
                    Some(text) => text.parse()?,
                    None => value.parse()?,
                });
            } else if meta.path.is_ident("null") {
                return Err(meta.error("`#[heap(null)]` goes on a unit variant of an enum, not on a field"));
            } else {
                return Err(meta.error(
                    "unknown heap attribute: expected `skip`, `omit`, `arena`, `index = \"field\"` or `with = module`",
                ));
            }
            Ok(())
        })?;
    }
    if attrs.arena && attrs.index.is_some() {
        return Err(syn::Error::new_spanned(field, "a field cannot be both an arena and an index link"));
    }
    if attrs.with.is_some() && (attrs.skip || attrs.arena || attrs.index.is_some()) {
        return Err(syn::Error::new_spanned(
            field,
            "`with` walks the field through its module: it cannot be combined with `skip`, `arena` or `index`",
        ));
    }
    Ok(attrs)
}

/// Whether `#[heap(null)]` marks `variant` as the heap's null.
fn variant_is_null(variant: &syn::Variant) -> syn::Result<bool> {
    let mut null = false;
    for attr in variant.attrs.iter().filter(|a| a.path().is_ident("heap")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("null") {
                null = true;
                Ok(())
            } else {
                Err(meta.error("unknown heap attribute on a variant: expected `null`"))
            }
        })?;
    }
    if null && !matches!(variant.fields, Fields::Unit) {
        return Err(syn::Error::new_spanned(
            variant,
            format!("`#[heap(null)]` marks a unit variant as the heap's null, but `{}` has fields", variant.ident),
        ));
    }
    Ok(null)
}

/// `#[heap(..)]` belongs on fields and variants; on the type itself it would be ignored.
fn reject_type_attrs(input: &DeriveInput) -> syn::Result<()> {
    match input.attrs.iter().find(|a| a.path().is_ident("heap")) {
        Some(attr) => Err(syn::Error::new_spanned(
            attr,
            "`#[heap(..)]` goes on fields (and `#[heap(null)]` on a unit variant of an enum), not on the type",
        )),
        None => Ok(()),
    }
}

/// One walked field: how to reach it and how to report it.
struct Walked {
    /// Index in the class's field table.
    index: usize,
    access: TokenStream,
    /// The field's own name, which names an arena.
    name: String,
    attrs: FieldAttrs,
}

pub fn derive(input: DeriveInput) -> syn::Result<TokenStream> {
    reject_type_attrs(&input)?;
    let name = &input.ident;
    let generics = bounded_generics(&input)?;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let class_name = name.to_string();
    let mut field_table = Vec::new();
    let mut variant_names = Vec::new();
    // The `#[heap(null)]` variant: its index and identifier.
    let mut null_variant: Option<(u32, &syn::Ident)> = None;

    // The walk twice: for any visitor, and with static calls for the
    // linearizer (`None` when a field is an arena, which only the first has).
    let (walk, walk_static) = match &input.data {
        Data::Struct(data) => {
            let walked = collect_fields(&data.fields, None, &mut field_table, |member| quote!(&self.#member))?;
            let tokens = (!walked.iter().any(|w| w.attrs.arena)).then(|| walk_fields(&walked, Calls::Static));
            (walk_fields(&walked, Calls::Dyn), tokens)
        }
        Data::Enum(data) => {
            let mut arms = Vec::new();
            let mut token_arms = Vec::new();
            for (v_index, variant) in data.variants.iter().enumerate() {
                let v_ident = &variant.ident;
                variant_names.push(v_ident.to_string());
                if variant_is_null(variant)? {
                    if let Some((_, first)) = null_variant {
                        return Err(syn::Error::new_spanned(
                            variant,
                            format!("only one variant can be `#[heap(null)]`, and `{first}` already is"),
                        ));
                    }
                    null_variant = Some((v_index as u32, v_ident));
                }
                let bindings: Vec<_> = (0..variant.fields.len()).map(|i| format_ident!("__field{}", i)).collect();
                let walked = collect_fields(&variant.fields, Some(v_ident.to_string()), &mut field_table, {
                    let mut position = 0;
                    let bindings = bindings.clone();
                    move |_member| {
                        let b = &bindings[position];
                        position += 1;
                        quote!(#b)
                    }
                })?;
                if walked.iter().any(|w| w.attrs.arena) {
                    return Err(syn::Error::new_spanned(variant, "arena fields are only supported on structs"));
                }
                let body = walk_fields(&walked, Calls::Dyn);
                let token_body = walk_fields(&walked, Calls::Static);
                let v_index = v_index as u32;
                let pattern = match &variant.fields {
                    Fields::Named(named) => {
                        let idents = named.named.iter().map(|f| f.ident.as_ref().expect("named"));
                        quote!(Self::#v_ident { #(#idents: #bindings),* })
                    }
                    Fields::Unnamed(_) => quote!(Self::#v_ident ( #(#bindings),* )),
                    Fields::Unit => quote!(Self::#v_ident),
                };
                arms.push(quote! {
                    #[allow(unused_variables)]
                    #pattern => {
                        visitor.variant(#v_index);
                        #body
                    }
                });
                token_arms.push(quote! {
                    #[allow(unused_variables)]
                    #pattern => {
                        visitor.variant(#v_index);
                        #token_body
                    }
                });
            }
            (quote!(match self { #(#arms)* }), Some(quote!(match self { #(#token_arms)* })))
        }
        Data::Union(u) => {
            return Err(syn::Error::new_spanned(u.union_token, "#[derive(Heap)] does not support unions"));
        }
    };

    let collect = collect_classes(&input.data)?;
    let hides_fields = hides_fields(&input.data)?;
    let skipped = skipped_fields(&input.data)?;
    let fields = field_table.iter().map(|(name, omit)| quote!(::smallscope::heap::Field { name: #name, omit: #omit }));
    let null_index = match null_variant {
        Some((index, _)) => quote!(::core::option::Option::Some(#index)),
        None => quote!(::core::option::Option::None),
    };
    // Only an enum with a null variant has values reported as null.
    let (is_null, nullable, visit_inline) = match null_variant {
        Some((_, ident)) => (
            quote! {
                fn is_null(&self) -> bool {
                    ::core::matches!(self, Self::#ident)
                }
            },
            quote! {
                fn nullable() -> bool {
                    true
                }
            },
            quote! {
                if ::smallscope::heap::Heap::is_null(self) {
                    visitor.null();
                    return;
                }
            },
        ),
        None => (quote!(), quote!(), quote!()),
    };
    let walk_static = walk_static.map(|body| {
        quote! {
            #[allow(unused_variables)]
            fn walk_static<__SmallscopeVisitor: ::smallscope::heap::StaticVisitor>(&self, visitor: &mut __SmallscopeVisitor) {
                use ::smallscope::heap::Visitor as _;
                let class = <Self as ::smallscope::heap::Heap>::class();
                #body
            }
        }
    });
    Ok(quote! {
        impl #impl_generics ::smallscope::heap::Heap for #name #ty_generics #where_clause {
            fn class() -> &'static ::smallscope::heap::Class {
                static CLASS: ::smallscope::heap::Class = ::smallscope::heap::Class {
                    name: #class_name,
                    fields: &[#(#fields),*],
                    variants: &[#(#variant_names),*],
                    hides_fields: #hides_fields,
                    skipped: &[#(#skipped),*],
                    null_variant: #null_index,
                };
                &CLASS
            }

            #is_null

            #[allow(unused_variables)]
            fn walk(&self, visitor: &mut dyn ::smallscope::heap::Visitor) {
                let class = <Self as ::smallscope::heap::Heap>::class();
                #walk
            }

            #walk_static

            #[allow(unused_variables)]
            fn collect_classes(schema: &mut ::smallscope::heap::Schema) {
                #collect
            }
        }

        impl #impl_generics ::smallscope::heap::HeapValue for #name #ty_generics #where_clause {
            #nullable

            fn visit(&self, visitor: &mut dyn ::smallscope::heap::Visitor) {
                #visit_inline
                visitor.inline(<Self as ::smallscope::heap::Heap>::class(), self);
            }
            fn visit_static<__SmallscopeVisitor: ::smallscope::heap::StaticVisitor>(&self, visitor: &mut __SmallscopeVisitor) {
                use ::smallscope::heap::Visitor as _;
                #visit_inline
                visitor.inline_static(self);
            }
            fn collect_classes(schema: &mut ::smallscope::heap::Schema) {
                schema.add::<Self>();
            }
        }
    })
}

/// Lists the walked fields of one struct or variant and adds them to `table`.
fn collect_fields(
    fields: &Fields,
    variant: Option<String>,
    table: &mut Vec<(String, bool)>,
    mut access: impl FnMut(&syn::Member) -> TokenStream,
) -> syn::Result<Vec<Walked>> {
    let mut walked = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let member = match &field.ident {
            Some(ident) => syn::Member::Named(ident.clone()),
            None => syn::Member::Unnamed(syn::Index::from(i)),
        };
        let access = access(&member);
        let attrs = field_attrs(field)?;
        if attrs.skip {
            continue;
        }
        let base = match &member {
            syn::Member::Named(ident) => ident.to_string(),
            syn::Member::Unnamed(index) => index.index.to_string(),
        };
        let qualified = match &variant {
            Some(v) => format!("{v}.{base}"),
            None => base.clone(),
        };
        let index = table.len();
        if !attrs.arena {
            table.push((qualified, attrs.omit));
        }
        walked.push(Walked { index, access, name: base, attrs });
    }
    Ok(walked)
}

/// How a walk reports a field's value: through `dyn Visitor`, or with the
/// linearizer's static calls (`HeapValue::visit_static`).
#[derive(Clone, Copy)]
enum Calls {
    Dyn,
    Static,
}

/// The body that reports `walked` to `visitor`, arenas made resolvable first.
fn walk_fields(walked: &[Walked], calls: Calls) -> TokenStream {
    let mut visits = Vec::new();
    for w in walked.iter().filter(|w| !w.attrs.arena) {
        let index = w.index;
        let access = &w.access;
        // Index links and `with` modules take a `dyn Visitor`, which the linearizer's walk is too.
        let visit = match (&w.attrs.index, &w.attrs.with, calls) {
            (Some(arena), _, _) => quote!(::smallscope::heap::IndexLink::visit_link(#access, #arena, visitor)),
            (None, Some(module), _) => quote!(#module::visit(#access, visitor)),
            (None, None, Calls::Dyn) => quote!(::smallscope::heap::HeapValue::visit(#access, visitor)),
            (None, None, Calls::Static) => quote!(::smallscope::heap::HeapValue::visit_static(#access, visitor)),
        };
        visits.push(quote! {
            if visitor.field(class, #index) {
                #visit;
            }
        });
    }
    let mut body = quote!(#(#visits)*);
    for w in walked.iter().filter(|w| w.attrs.arena) {
        let access = &w.access;
        let name = &w.name;
        body = quote! {
            visitor.arena(#name, #access, &mut |visitor: &mut dyn ::smallscope::heap::Visitor| {
                #body
            });
        };
    }
    body
}

fn all_fields(data: &Data) -> Vec<&syn::Field> {
    match data {
        Data::Struct(s) => s.fields.iter().collect(),
        Data::Enum(e) => e.variants.iter().flat_map(|v| v.fields.iter()).collect(),
        Data::Union(_) => Vec::new(),
    }
}

/// Whether a field is skipped or omitted.
fn hides_fields(data: &Data) -> syn::Result<bool> {
    for field in all_fields(data) {
        let attrs = field_attrs(field)?;
        if attrs.skip || attrs.omit {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The names of the skipped fields (`Variant.field` in an enum) that can
/// hold state: a `PhantomData` marker never does.
fn skipped_fields(data: &Data) -> syn::Result<Vec<String>> {
    let marker = |ty: &syn::Type| matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "PhantomData"));
    let mut names = Vec::new();
    let mut add = |variant: Option<&syn::Ident>, fields: &Fields| -> syn::Result<()> {
        for (i, field) in fields.iter().enumerate() {
            if field_attrs(field)?.skip && !marker(&field.ty) {
                let base = field.ident.as_ref().map_or(i.to_string(), ToString::to_string);
                names.push(variant.map_or(base.clone(), |v| format!("{v}.{base}")));
            }
        }
        Ok(())
    };
    match data {
        Data::Struct(s) => add(None, &s.fields)?,
        Data::Enum(e) => {
            for variant in &e.variants {
                add(Some(&variant.ident), &variant.fields)?;
            }
        }
        Data::Union(_) => {}
    }
    Ok(names)
}

fn collect_classes(data: &Data) -> syn::Result<TokenStream> {
    let mut calls = Vec::new();
    for field in all_fields(data) {
        let attrs = field_attrs(field)?;
        if attrs.skip || attrs.index.is_some() {
            continue;
        }
        let ty = &field.ty;
        calls.push(match &attrs.with {
            Some(module) => quote!(#module::collect_classes(schema);),
            None => quote!(<#ty as ::smallscope::heap::HeapValue>::collect_classes(schema);),
        });
    }
    Ok(quote!(#(#calls)*))
}

/// The type's generics, with `P: HeapValue` added (as serde adds its bounds)
/// for each type parameter `P` that a walked field's type names. Fields the
/// walk does not reach through `HeapValue` add nothing: `skip`ped ones,
/// index links and `with` fields (their module states its own bounds), and
/// a `PhantomData<P>`, which is walked whatever `P` is.
fn bounded_generics(input: &DeriveInput) -> syn::Result<syn::Generics> {
    let params: Vec<&Ident> = input.generics.type_params().map(|p| &p.ident).collect();
    let mut named = vec![false; params.len()];
    for field in all_fields(&input.data) {
        let attrs = field_attrs(field)?;
        if !(attrs.skip || attrs.index.is_some() || attrs.with.is_some()) {
            mark_params_in_type(&field.ty, &params, &mut named);
        }
    }
    let mut generics = input.generics.clone();
    for (param, _) in params.iter().zip(&named).filter(|(_, named)| **named) {
        generics.make_where_clause().predicates.push(parse_quote!(#param: ::smallscope::heap::HeapValue));
    }
    Ok(generics)
}

/// Sets `named[i]` for each `params[i]` that `ty` names outside a `PhantomData`.
fn mark_params_in_type(ty: &syn::Type, params: &[&Ident], named: &mut [bool]) {
    match ty {
        syn::Type::Path(path) => {
            if let Some(qself) = &path.qself {
                mark_params_in_type(&qself.ty, params, named);
            }
            mark_params_in_path(&path.path, params, named);
        }
        syn::Type::Array(array) => mark_params_in_type(&array.elem, params, named),
        syn::Type::Slice(slice) => mark_params_in_type(&slice.elem, params, named),
        syn::Type::Reference(reference) => mark_params_in_type(&reference.elem, params, named),
        syn::Type::Ptr(ptr) => mark_params_in_type(&ptr.elem, params, named),
        syn::Type::Paren(paren) => mark_params_in_type(&paren.elem, params, named),
        syn::Type::Group(group) => mark_params_in_type(&group.elem, params, named),
        syn::Type::Tuple(tuple) => tuple.elems.iter().for_each(|elem| mark_params_in_type(elem, params, named)),
        // Trait objects, function pointers, macros: any mention counts.
        other => mark_params_in_tokens(other.to_token_stream(), params, named),
    }
}

fn mark_params_in_path(path: &syn::Path, params: &[&Ident], named: &mut [bool]) {
    if path.segments.last().is_some_and(|last| last.ident == "PhantomData") {
        return;
    }
    if path.leading_colon.is_none() {
        if let Some(first) = path.segments.first() {
            mark_ident(&first.ident, params, named);
        }
    }
    for segment in &path.segments {
        match &segment.arguments {
            syn::PathArguments::AngleBracketed(args) => {
                for arg in &args.args {
                    match arg {
                        syn::GenericArgument::Type(ty) => mark_params_in_type(ty, params, named),
                        syn::GenericArgument::AssocType(assoc) => mark_params_in_type(&assoc.ty, params, named),
                        _ => {}
                    }
                }
            }
            syn::PathArguments::Parenthesized(args) => {
                mark_params_in_tokens(args.to_token_stream(), params, named);
            }
            syn::PathArguments::None => {}
        }
    }
}

fn mark_params_in_tokens(tokens: TokenStream, params: &[&Ident], named: &mut [bool]) {
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => mark_ident(&ident, params, named),
            TokenTree::Group(group) => mark_params_in_tokens(group.stream(), params, named),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}

fn mark_ident(ident: &Ident, params: &[&Ident], named: &mut [bool]) {
    if let Some(i) = params.iter().position(|p| *p == ident) {
        named[i] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error `#[derive(Heap)]` gives for `input`.
    fn error_of(input: DeriveInput) -> String {
        match derive(input) {
            Ok(_) => panic!("expected an error"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn null_on_a_variant_with_fields_is_rejected() {
        let error = error_of(parse_quote! {
            enum Tree { Leaf, #[heap(null)] Node(Box<Tree>, u8, Box<Tree>) }
        });
        assert_eq!(error, "`#[heap(null)]` marks a unit variant as the heap's null, but `Node` has fields");
    }

    #[test]
    fn a_second_null_variant_is_rejected() {
        let error = error_of(parse_quote! {
            enum Tree { #[heap(null)] Leaf, #[heap(null)] Empty, Node(Box<Tree>) }
        });
        assert_eq!(error, "only one variant can be `#[heap(null)]`, and `Leaf` already is");
    }

    #[test]
    fn null_anywhere_but_a_variant_is_rejected() {
        let on_type = error_of(parse_quote! {
            #[heap(null)]
            struct Leaf;
        });
        assert!(on_type.contains("not on the type"), "{on_type}");
        let on_field = error_of(parse_quote! {
            struct Holder { #[heap(null)] leaf: u8 }
        });
        assert_eq!(on_field, "`#[heap(null)]` goes on a unit variant of an enum, not on a field");
        let unknown = error_of(parse_quote! {
            enum Tree { #[heap(nil)] Leaf }
        });
        assert_eq!(unknown, "unknown heap attribute on a variant: expected `null`");
    }

    #[test]
    fn with_cannot_be_combined_with_other_walks() {
        for attrs in [quote!(#[heap(with = m, skip)]), quote!(#[heap(with = m, index = "nodes")])] {
            let error = error_of(parse_quote! {
                struct Holder { #attrs field: usize }
            });
            assert!(error.starts_with("`with` walks the field through its module"), "{error}");
        }
    }

    #[test]
    fn with_accepts_a_path_or_a_string() {
        for attrs in [quote!(#[heap(with = shapes::range)]), quote!(#[heap(with = "shapes::range")])] {
            let output = derive(parse_quote! {
                struct Holder { #attrs field: std::ops::Range<u8> }
            })
            .expect("valid")
            .to_string();
            assert!(output.contains("shapes :: range :: visit (& self . field , visitor)"), "{output}");
            assert!(output.contains("shapes :: range :: collect_classes (schema)"), "{output}");
        }
    }

    /// The where clause of the generated impls, as text.
    fn where_clause_of(input: DeriveInput) -> String {
        bounded_generics(&input)
            .expect("valid")
            .where_clause
            .map(|w| w.to_token_stream().to_string())
            .unwrap_or_default()
    }

    #[test]
    fn only_parameters_of_walked_fields_are_bounded() {
        let clause = where_clause_of(parse_quote! {
            struct Mixed<A, B, C, D, E: Clone, F> {
                walked: Vec<Option<Box<A>>>,
                #[heap(skip)]
                skipped: B,
                marker: PhantomData<C>,
                #[heap(index = "nodes")]
                link: Option<usize>,
                #[heap(with = opaque)]
                foreign: Opaque<D>,
                tuple: (u8, [E; 2]),
                assoc: <F as Iterator>::Item,
            }
        });
        assert_eq!(
            clause,
            "where A : :: smallscope :: heap :: HeapValue , E : :: smallscope :: heap :: HeapValue , \
             F : :: smallscope :: heap :: HeapValue"
        );
        let lru = where_clause_of(parse_quote! {
            struct Lru<V: Variant> { #[heap(skip)] variant: PhantomData<V>, capacity: u8 }
        });
        assert_eq!(lru, "");
    }
}
