//! `#[derive(Korat)]`: a model class for the Korat engine, and its view.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Expr, Fields};

/// `#[korat(..)]` on the struct: `objects = expr` (default 1: a root).
fn class_objects(input: &DeriveInput) -> syn::Result<Expr> {
    let mut objects: Expr = syn::parse_quote!(1);
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("korat")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("objects") {
                objects = meta.value()?.parse()?;
                Ok(())
            } else {
                Err(meta.error("unknown korat attribute on a struct: expected `objects = <expr in n>`"))
            }
        })?;
    }
    Ok(objects)
}

/// `#[korat(..)]` on a field.
#[derive(Default)]
struct FieldBounds {
    ints: Option<Expr>,
    length: Option<Expr>,
    nullable: Option<Expr>,
}

fn field_bounds(field: &syn::Field) -> syn::Result<FieldBounds> {
    let mut bounds = FieldBounds::default();
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("korat")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("ints") {
                bounds.ints = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("length") {
                bounds.length = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("nullable") {
                bounds.nullable = Some(meta.value()?.parse()?);
            } else {
                return Err(meta.error("unknown korat attribute on a field: expected `ints`, `length` or `nullable`"));
            }
            Ok(())
        })?;
    }
    Ok(bounds)
}

/// `Some(into_domain({ let n = n; expr }))`, or `None`.
fn domain(expr: &Option<Expr>) -> TokenStream {
    match expr {
        Some(e) => quote!(::core::option::Option::Some(::smallscope::korat::IntoDomain::into_domain({
            #[allow(unused_variables)]
            let n: i64 = n;
            #e
        }))),
        None => quote!(::core::option::Option::None),
    }
}

pub fn derive(input: DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let vis = &input.vis;
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(&input.generics, "#[derive(Korat)] models cannot be generic"));
    }
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(name, "#[derive(Korat)] needs a struct with named fields"));
    };
    let Fields::Named(fields) = &data.fields else {
        return Err(syn::Error::new_spanned(name, "#[derive(Korat)] needs a struct with named fields"));
    };
    let view = format_ident!("{}View", name);
    let objects = class_objects(&input)?;
    let class_name = name.to_string();
    let mut declares = Vec::new();
    let mut readers = Vec::new();
    let mut touches = Vec::new();
    // Whether the fields before this one are one slot each, as a constant expression.
    let mut one_slot_each_before = quote!(true);
    for (index, field) in fields.named.iter().enumerate() {
        let ident = field.ident.as_ref().expect("named field");
        let ty = &field.ty;
        let field_name = ident.to_string();
        let qualified = format!("{class_name}.{field_name}");
        let bounds = field_bounds(field)?;
        let ints = domain(&bounds.ints);
        let length = domain(&bounds.length);
        let nullable = match &bounds.nullable {
            Some(e) => quote!(::core::option::Option::Some(#e)),
            None => quote!(::core::option::Option::None),
        };
        declares.push(quote! {
            let bounds = ::smallscope::korat::Bounds {
                field: #qualified,
                ints: #ints,
                length: #length,
                nullable: #nullable,
            };
            let kind = <#ty as ::smallscope::korat::FieldType>::kind(space, n, &bounds);
            space.add_field(id, #field_name, kind);
        });
        let doc = format!("Reads `{qualified}` (the read is logged).");
        readers.push(quote! {
            #[doc = #doc]
            #[inline]
            #vis fn #ident(self) -> <#ty as ::smallscope::korat::FieldType>::Out<'c> {
                self.handle.read_field_at::<#ty>(#index, { #one_slot_each_before })
            }
        });
        one_slot_each_before = quote! {
            #one_slot_each_before && <#ty as ::smallscope::korat::FieldType>::FIXED_WIDTH
                && <#ty as ::smallscope::korat::FieldType>::WIDTH == 1
        };
        touches.push(quote!(let _ = &self.#ident;));
    }
    let view_doc =
        format!("A read-only view of one `{class_name}` object of a Korat candidate; every field read is logged.");
    Ok(quote! {
        impl ::smallscope::korat::Model for #name {
            type View<'c> = #view<'c>;

            fn declare(space: &mut ::smallscope::korat::SpaceBuilder, n: i64) -> ::smallscope::korat::ClassId {
                if let ::core::option::Option::Some(id) = space.class_id::<Self>() {
                    return id;
                }
                let objects: i64 = {
                    #[allow(unused_variables)]
                    let n: i64 = n;
                    (#objects) as i64
                };
                let id = space.add_class::<Self>(#class_name, objects);
                #(#declares)*
                id
            }

        }

        impl<'c> ::smallscope::korat::View<'c> for #view<'c> {
            #[inline]
            fn from_handle(handle: ::smallscope::korat::ViewHandle<'c>) -> Self {
                #view { handle }
            }
            #[inline]
            fn handle(self) -> ::smallscope::korat::ViewHandle<'c> {
                self.handle
            }
        }

        impl #name {
            /// Models are never built; this keeps their fields from looking unused.
            #[doc(hidden)]
            #[allow(dead_code)]
            pub fn __smallscope_model_fields(&self) {
                #(#touches)*
            }
        }

        #[doc = #view_doc]
        #[derive(Clone, Copy)]
        #vis struct #view<'c> {
            // Reads go through the handle, which logs them.
            handle: ::smallscope::korat::ViewHandle<'c>,
        }

        impl<'c> #view<'c> {
            #(#readers)*

            /// The object's index among the objects of its class.
            #[inline]
            #vis fn object_index(self) -> u32 {
                self.handle.object()
            }
        }

        impl ::core::cmp::PartialEq for #view<'_> {
            fn eq(&self, other: &Self) -> bool {
                self.handle == other.handle
            }
        }
        impl ::core::cmp::Eq for #view<'_> {}
        impl ::core::hash::Hash for #view<'_> {
            fn hash<H: ::core::hash::Hasher>(&self, state: &mut H) {
                self.handle.hash(state);
            }
        }
        impl ::core::fmt::Debug for #view<'_> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}#{}", #class_name, self.handle.object())
            }
        }
    })
}
