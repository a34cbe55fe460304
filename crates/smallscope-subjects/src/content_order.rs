//! Equality, hashing and order by content, for subjects whose representation
//! (arena layout, cached nodes, tree shape) is not part of their value.
//!
//! `compare_by_content!([generics] Type, key)` implements `PartialEq`, `Eq`,
//! `PartialOrd`, `Ord` and `Hash` through `self.key()`, which yields the
//! content (a `Vec` or an iterator of elements): equal content is equal, the
//! order is lexicographic, and the hash is that of exactly what `==`
//! compares. With `@order` first, `Hash` is left to the subject.

macro_rules! compare_by_content {
    ([$($generics:tt)*] $ty:ty, $key:ident) => {
        compare_by_content!(@order [$($generics)*] $ty, $key);

        impl<$($generics)*> ::std::hash::Hash for $ty {
            fn hash<H: ::std::hash::Hasher>(&self, state: &mut H) {
                let mut count = 0usize;
                for element in self.$key() {
                    ::std::hash::Hash::hash(&element, state);
                    count += 1;
                }
                state.write_usize(count);
            }
        }
    };
    (@order [$($generics:tt)*] $ty:ty, $key:ident) => {
        impl<$($generics)*> PartialEq for $ty {
            fn eq(&self, other: &Self) -> bool {
                self.$key().into_iter().eq(other.$key())
            }
        }

        impl<$($generics)*> Eq for $ty {}

        impl<$($generics)*> PartialOrd for $ty {
            fn partial_cmp(&self, other: &Self) -> Option<::std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        impl<$($generics)*> Ord for $ty {
            fn cmp(&self, other: &Self) -> ::std::cmp::Ordering {
                self.$key().into_iter().cmp(other.$key())
            }
        }
    };
}
