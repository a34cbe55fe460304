//! A bounded bag of item ids, written the way a user writes one: a sorted
//! `Vec<u8>` and a capacity, with an API whose parameters and returns are
//! the everyday kinds (`u8`, `Option<u8>`, `&[u8]`, `Vec<u8>`, `Option<&u8>`,
//! `&[u8]`, an `impl Iterator`), methods that take an [`Order`], another
//! subject, by `&` and `&mut`, and a method that takes a type smallscope
//! cannot make, left out of the API with `#[smallscope(skip)]`.
//!
//! `Inventory<AppendingAdd>` has a planted bug: once the bag holds two
//! items, `add` appends instead of inserting in order, so the items are no
//! longer sorted (`rep_ok` false). It needs a capacity of at least 3:
//! `new(3); add(1); add(2); add(0)`.

use std::marker::PhantomData;

use smallscope::Heap;

/// How `add` places an item: in order, or the planted bug.
pub trait AddBehaviour: Clone + std::fmt::Debug + 'static {
    /// `add` appends when the bag already holds two items or more.
    const APPENDS_PAST_TWO: bool;
}

#[derive(Clone, Debug)]
pub struct SortedAdd;
impl AddBehaviour for SortedAdd {
    const APPENDS_PAST_TWO: bool = false;
}

#[derive(Clone, Debug)]
pub struct AppendingAdd;
impl AddBehaviour for AppendingAdd {
    const APPENDS_PAST_TWO: bool = true;
}

#[derive(Heap, Clone, Debug)]
pub struct Inventory<B: AddBehaviour> {
    /// Item ids, smallest first; an id may repeat.
    items: Vec<u8>,
    /// The most items the bag holds.
    capacity: u8,
    #[heap(skip)]
    behaviour: PhantomData<B>,
}

/// There is no room for what was added.
#[derive(Debug)]
pub struct Full;

/// The item asked for is not in the bag.
#[derive(Debug)]
pub struct Missing;

/// A supplier's price list: not a type smallscope can make arguments of.
#[derive(Debug, Default)]
pub struct PriceList {
    pub prices: Vec<(u8, u32)>,
}

/// A customer's order: at most [`Order::MOST_ITEMS`] item ids, in the
/// order asked for. The bag's `restock` and `ship` take one, so their
/// arguments are the order's own structures.
#[derive(Heap, Clone, Debug, Default, PartialEq)]
pub struct Order {
    wanted: Vec<u8>,
}

/// The order holds [`Order::MOST_ITEMS`] items already.
#[derive(Debug)]
pub struct OrderFull;

#[smallscope::api(name = "fixture-order")]
impl Order {
    /// The most items one order asks for.
    pub const MOST_ITEMS: usize = 3;

    pub fn new() -> Self {
        Order::default()
    }

    /// Asks for one more item.
    pub fn want(&mut self, item: u8) -> Result<(), OrderFull> {
        if self.wanted.len() >= Self::MOST_ITEMS {
            return Err(OrderFull);
        }
        self.wanted.push(item);
        Ok(())
    }

    /// How many items are still wanted.
    pub fn len(&self) -> usize {
        self.wanted.len()
    }

    pub fn is_empty(&self) -> bool {
        self.wanted.is_empty()
    }
}

#[smallscope::api(
    rep_ok = rep_ok,
    register("fixture-inventory" = Inventory<SortedAdd>, "fixture-inventory-buggy" = Inventory<AppendingAdd>)
)]
impl<B: AddBehaviour> Inventory<B> {
    /// An empty bag for at most `capacity` items.
    pub fn new(capacity: u8) -> Self {
        Inventory { items: Vec::new(), capacity, behaviour: PhantomData }
    }

    /// Adds one item.
    pub fn add(&mut self, item: u8) -> Result<(), Full> {
        if self.items.len() >= usize::from(self.capacity) {
            return Err(Full);
        }
        if B::APPENDS_PAST_TWO && self.items.len() >= 2 {
            self.items.push(item);
        } else {
            self.insert_sorted(item);
        }
        Ok(())
    }

    /// Adds every item, or none when they do not all fit.
    pub fn add_all(&mut self, items: &[u8]) -> Result<(), Full> {
        if self.items.len() + items.len() > usize::from(self.capacity) {
            return Err(Full);
        }
        for &item in items {
            self.insert_sorted(item);
        }
        Ok(())
    }

    /// Adds every item `order` wants, or none when they do not all fit.
    pub fn restock(&mut self, order: &Order) -> Result<(), Full> {
        self.add_all(&order.wanted)
    }

    /// Takes out each item `order` wants that the bag holds, crosses it off
    /// the order, and says how many were shipped.
    pub fn ship(&mut self, order: &mut Order) -> usize {
        let before = order.wanted.len();
        order.wanted.retain(|wanted| match self.items.iter().position(|item| item == wanted) {
            Some(index) => {
                self.items.remove(index);
                false
            }
            None => true,
        });
        before - order.wanted.len()
    }

    /// Takes out `item`, or the smallest item for `None`.
    pub fn take(&mut self, item: Option<u8>) -> Result<u8, Missing> {
        let index = match item {
            None if !self.items.is_empty() => 0,
            None => return Err(Missing),
            Some(wanted) => self.items.iter().position(|&i| i == wanted).ok_or(Missing)?,
        };
        Ok(self.items.remove(index))
    }

    /// Keeps only the items listed (each as often as the bag holds it).
    pub fn keep_only(&mut self, kept: Vec<u8>) {
        self.items.retain(|item| kept.contains(item));
    }

    /// How many of `item` the bag holds.
    pub fn count(&self, item: u8) -> usize {
        self.items.iter().filter(|&&i| i == item).count()
    }

    /// The smallest item.
    pub fn first(&self) -> Option<&u8> {
        self.items.first()
    }

    /// The stored copy of `item`, if the bag holds one.
    pub fn find(&self, item: u8) -> Option<&u8> {
        self.items.iter().find(|&&i| i == item)
    }

    /// Every item, smallest first.
    pub fn items(&self) -> &[u8] {
        &self.items
    }

    /// The items below `bound`: an `impl Iterator` has no `Debug`, so
    /// calls are made but what they return is not observed.
    pub fn below(&self, bound: u8) -> impl Iterator<Item = &u8> + '_ {
        self.items.iter().take_while(move |&&i| i < bound)
    }

    /// What the bag is worth at `prices`. smallscope cannot make a
    /// `PriceList`, so the method is left out of the API.
    #[smallscope(skip)]
    pub fn value(&self, prices: &PriceList) -> u32 {
        self.items.iter().map(|item| prices.prices.iter().find(|(i, _)| i == item).map_or(0, |&(_, p)| p)).sum()
    }

    /// The items are sorted and within the capacity.
    pub fn rep_ok(&self) -> bool {
        self.items.windows(2).all(|pair| pair[0] <= pair[1]) && self.items.len() <= usize::from(self.capacity)
    }

    fn insert_sorted(&mut self, item: u8) {
        let at = self.items.partition_point(|&i| i <= item);
        self.items.insert(at, item);
    }
}
