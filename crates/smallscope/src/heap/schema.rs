//! [`Schema`]: the classes a type can reach, for checking configuration.

use super::{Class, Heap};
use crate::ConfigError;

/// Every class reachable from a root type, in discovery order.
#[derive(Debug, Default, Clone)]
pub struct Schema {
    classes: Vec<&'static Class>,
}

impl Schema {
    /// The schema of `T` and everything its fields can reach.
    pub fn of<T: Heap>() -> Self {
        let mut schema = Schema::default();
        schema.add::<T>();
        schema
    }

    /// Adds `T` and, the first time, the classes its fields reach.
    pub fn add<T: Heap>(&mut self) {
        let class = T::class();
        if !self.classes.iter().any(|c| std::ptr::eq(*c, class)) {
            self.classes.push(class);
            T::collect_classes(self);
        }
    }

    pub fn classes(&self) -> &[&'static Class] {
        &self.classes
    }

    /// The class called `name`.
    pub fn class(&self, name: &str) -> Option<&'static Class> {
        self.classes.iter().copied().find(|c| c.name == name)
    }

    /// Whether some class hides fields from the canonical form.
    pub fn hides_fields(&self) -> bool {
        self.classes.iter().any(|c| c.hides_fields)
    }

    /// Whether some class has `#[heap(skip)]` fields, which no walk sees.
    pub fn skips_fields(&self) -> bool {
        self.classes.iter().any(|c| !c.skipped.is_empty())
    }

    /// Whether some class walks a field it leaves out of the canonical form (`#[heap(omit)]`).
    pub fn omits_fields(&self) -> bool {
        self.classes.iter().any(|c| c.fields.iter().any(|f| f.omit))
    }

    /// Every `Class.field` name, for error messages.
    pub fn field_names(&self) -> Vec<String> {
        self.classes.iter().flat_map(|c| c.fields.iter().map(move |f| format!("{}.{}", c.name, f.name))).collect()
    }

    /// Resolves `Class.field` names to `(class, field index)` pairs, as
    /// [`Linearizer::omit`](super::Linearizer::omit) takes them.
    pub fn resolve_fields<S: AsRef<str>>(&self, names: &[S]) -> Result<Vec<(&'static Class, usize)>, ConfigError> {
        names
            .iter()
            .map(|name| {
                let name = name.as_ref();
                let unknown =
                    || ConfigError::UnknownField { name: name.to_owned(), known: self.field_names().join(", ") };
                let (class, field) = name.split_once('.').ok_or_else(unknown)?;
                let class = self.class(class).ok_or_else(unknown)?;
                let index = class.field_index(field).ok_or_else(unknown)?;
                Ok((class, index))
            })
            .collect()
    }
}
