//! `#[derive(Heap)]`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, LitStr};

/// What `#[heap(..)]` says about one field.
#[derive(Default)]
struct FieldAttrs {
    skip: bool,
    omit: bool,
    arena: bool,
    index: Option<LitStr>,
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
            } else {
                return Err(
                    meta.error("unknown heap attribute: expected `skip`, `omit`, `arena` or `index = \"field\"`")
                );
            }
            Ok(())
        })?;
    }
    if attrs.arena && attrs.index.is_some() {
        return Err(syn::Error::new_spanned(field, "a field cannot be both an arena and an index link"));
    }
    Ok(attrs)
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
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let class_name = name.to_string();
    let mut field_table = Vec::new();
    let mut variant_names = Vec::new();

    let walk = match &input.data {
        Data::Struct(data) => {
            let walked = collect_fields(&data.fields, None, &mut field_table, |member| quote!(&self.#member))?;
            walk_fields(&walked)?
        }
        Data::Enum(data) => {
            let mut arms = Vec::new();
            for (v_index, variant) in data.variants.iter().enumerate() {
                let v_ident = &variant.ident;
                variant_names.push(v_ident.to_string());
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
                let body = walk_fields(&walked)?;
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
            }
            quote! {
                match self {
                    #(#arms)*
                }
            }
        }
        Data::Union(u) => {
            return Err(syn::Error::new_spanned(u.union_token, "#[derive(Heap)] does not support unions"));
        }
    };

    let collect = collect_classes(&input.data)?;
    let hides_fields = hides_fields(&input.data)?;
    let fields = field_table.iter().map(|(name, omit)| quote!(::smallscope::heap::Field { name: #name, omit: #omit }));
    Ok(quote! {
        impl #impl_generics ::smallscope::heap::Heap for #name #ty_generics #where_clause {
            fn class() -> &'static ::smallscope::heap::Class {
                static CLASS: ::smallscope::heap::Class = ::smallscope::heap::Class {
                    name: #class_name,
                    fields: &[#(#fields),*],
                    variants: &[#(#variant_names),*],
                    hides_fields: #hides_fields,
                };
                &CLASS
            }

            #[allow(unused_variables)]
            fn walk(&self, visitor: &mut dyn ::smallscope::heap::Visitor) {
                let class = <Self as ::smallscope::heap::Heap>::class();
                #walk
            }

            #[allow(unused_variables)]
            fn collect_classes(schema: &mut ::smallscope::heap::Schema) {
                #collect
            }
        }

        impl #impl_generics ::smallscope::heap::HeapValue for #name #ty_generics #where_clause {
            fn visit(&self, visitor: &mut dyn ::smallscope::heap::Visitor) {
                visitor.inline(<Self as ::smallscope::heap::Heap>::class(), self);
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

/// The body that reports `walked` to `visitor`, arenas made resolvable first.
fn walk_fields(walked: &[Walked]) -> syn::Result<TokenStream> {
    let mut visits = Vec::new();
    for w in walked.iter().filter(|w| !w.attrs.arena) {
        let index = w.index;
        let access = &w.access;
        let visit = match &w.attrs.index {
            Some(arena) => {
                quote!(::smallscope::heap::IndexLink::visit_link(#access, #arena, visitor))
            }
            None => quote!(::smallscope::heap::HeapValue::visit(#access, visitor)),
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
    Ok(body)
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

fn collect_classes(data: &Data) -> syn::Result<TokenStream> {
    let mut calls = Vec::new();
    for field in all_fields(data) {
        let attrs = field_attrs(field)?;
        if attrs.skip || attrs.index.is_some() {
            continue;
        }
        let ty = &field.ty;
        calls.push(quote!(<#ty as ::smallscope::heap::HeapValue>::collect_classes(schema);));
    }
    Ok(quote!(#(#calls)*))
}
