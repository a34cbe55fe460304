//! What a user sees when `#[smallscope::api]` cannot take a method: each
//! mistake is built in a crate of its own, and the compiler's error must
//! name the problem, point at it, and say how to leave the method out.

use smallscope_scratch_crate::ScratchCrate;

const HEADER: &str = "use smallscope::Heap;\n\
                      #[derive(Heap, Clone, Debug, Default)]\n\
                      pub struct Bag { items: Vec<u8> }\n\
                      #[derive(Debug, Default)]\n\
                      pub struct Other { price: u32 }\n";

/// Builds `api` after [`HEADER`] and returns what the compiler said.
fn build_errors(krate: &ScratchCrate, api: &str) -> String {
    krate.write_lib(&format!("{HEADER}{api}"));
    let run = krate.cargo_build();
    assert!(!run.success, "should not compile:\n{api}");
    run.text
}

#[test]
fn unsupported_shapes_get_errors_that_name_them() {
    let dir = tempfile::tempdir().unwrap();
    let krate = ScratchCrate::new(dir.path(), "api-errors", &["smallscope"]);

    // A parameter of another type without an API: the error names it, on
    // its line, and says how to give it one or leave the method out.
    let errors = build_errors(
        &krate,
        "#[smallscope::api]\nimpl Bag {\n    pub fn new() -> Self { Bag::default() }\n\
         pub fn merge(&mut self, other: &Other) { self.items.push(other.price as u8) }\n}\n",
    );
    assert!(errors.contains("error[E0277]: `&Other` is not a parameter type #[smallscope::api] supports"), "{errors}");
    assert!(errors.contains("--> src/lib.rs:9:32"), "at the parameter's type:\n{errors}");
    assert!(errors.contains("the trait `smallscope::Subject` is not implemented for `Other`"), "{errors}");
    assert!(errors.contains("a reference to another type with #[smallscope::api]"), "{errors}");
    assert!(errors.contains("leave the method out of the API with #[smallscope(skip)]"), "{errors}");

    // A parameter smallscope cannot make at all.
    let errors = build_errors(
        &krate,
        "#[smallscope::api]\nimpl Bag {\n    pub fn new() -> Self { Bag::default() }\n\
         pub fn fill(&mut self, into: &mut [u8]) { into.fill(1) }\n}\n",
    );
    assert!(errors.contains("`&mut [u8]` is not a parameter type #[smallscope::api] supports"), "{errors}");
    assert!(errors.contains("leave the method out of the API with #[smallscope(skip)]"), "{errors}");

    // A parameter that borrows for the impl's lifetime.
    let errors = build_errors(
        &krate,
        "#[derive(Heap, Clone, Debug)]\npub struct Named<'a> { #[heap(skip)] name: &'a str }\n\
         #[smallscope::api]\nimpl<'a> Named<'a> {\n    pub fn new(name: &'a str) -> Self { Named { name } }\n}\n",
    );
    assert!(errors.contains("`&'a str` borrows for the impl's lifetime"), "{errors}");
    assert!(errors.contains("#[smallscope(skip)]"), "{errors}");

    // A type-generic impl still needs `register`, and the error says why.
    let errors = build_errors(
        &krate,
        "#[derive(Heap, Clone, Debug)]\npub struct Wrapper<T: Clone + std::fmt::Debug + 'static> { #[heap(skip)] value: Option<T> }\n\
         #[smallscope::api]\nimpl<T: Clone + std::fmt::Debug + 'static> Wrapper<T> {\n    pub fn new() -> Self { Wrapper { value: None } }\n}\n",
    );
    assert!(errors.contains("an impl generic over types or constants needs `register("), "{errors}");

    // And a method that returns what has no `Debug` compiles: it is called, not observed.
    krate.write_lib(&format!(
        "{HEADER}#[smallscope::api]\nimpl Bag {{\n    pub fn new() -> Self {{ Bag::default() }}\n\
         pub fn iter(&self) -> impl Iterator<Item = &u8> + '_ {{ self.items.iter() }}\n\
         pub fn other(&self) -> Other {{ Other::default() }}\n}}\n"
    ));
    let run = krate.cargo_build();
    assert!(run.success, "{}", run.text);
}
