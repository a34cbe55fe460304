//! Macros for smallscope. Rust has no reflection, so these describe heap
//! shapes and APIs at compile time:
//!
//! - `#[derive(Heap)]` makes a struct or enum walk its own object graph;
//! - `#[smallscope::api]` turns the `pub fn`s of an `impl` block into
//!   operations that the engines can call, and registers the subject.
//!
//! Both are documented, with examples, where the `smallscope` crate re-exports them.

mod api;
mod heap;
mod korat;

use proc_macro::TokenStream;

/// Derives `smallscope::Heap`. See the `smallscope::heap` module for the attributes.
#[proc_macro_derive(Heap, attributes(heap))]
pub fn derive_heap(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    heap::derive(input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// Declares a subject's API. See `smallscope::api` for the arguments.
#[proc_macro_attribute]
pub fn api(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemImpl);
    api::expand(args.into(), item).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// Derives `smallscope::korat::Model` and a `{Name}View` type. See `smallscope::korat`.
#[proc_macro_derive(Korat, attributes(korat))]
pub fn derive_korat(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    korat::derive(input).unwrap_or_else(syn::Error::into_compile_error).into()
}
