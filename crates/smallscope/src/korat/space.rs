//! The candidate space: classes, their object counts and field domains
//! (Korat's finitization), laid out as one vector of slots.

use std::any::TypeId;
use std::borrow::Cow;

use rustc_hash::FxHashMap;

use crate::heap::{GraphObject, GraphValue, GroupKind, ObjectGraph};

/// Index of a class in a [`Space`].
pub type ClassId = u32;

/// What values a field can take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKind {
    /// A reference to an object of `class`: `null` first when `nullable`,
    /// then the objects in order.
    Ref { class: ClassId, nullable: bool },
    /// One of these values, in this order (integers, `bool` as 0 and 1).
    Values(Vec<i64>),
    /// An array owned by its object: a length from `lengths`, then up to
    /// `max(lengths)` elements of kind `element`.
    Array { lengths: Vec<i64>, element: Box<FieldKind> },
}

impl FieldKind {
    /// Slots the field occupies in each object.
    fn width(&self) -> usize {
        match self {
            FieldKind::Array { lengths, element } => {
                let max = lengths.iter().copied().max().unwrap_or(0).max(0) as usize;
                1 + max * element.width()
            }
            _ => 1,
        }
    }
}

/// A field of a class, as declared.
#[derive(Debug, Clone)]
pub struct FieldDecl {
    pub name: &'static str,
    pub kind: FieldKind,
    /// The field's first slot within an object.
    pub offset: usize,
}

/// A class and how many objects of it the space holds.
#[derive(Debug, Clone)]
pub struct ClassDecl {
    pub name: &'static str,
    pub type_id: TypeId,
    pub objects: usize,
    pub fields: Vec<FieldDecl>,
    /// Slots per object.
    pub stride: usize,
    /// The first slot of object 0.
    pub base: usize,
}

/// What one slot of the candidate vector holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotDomain {
    Ref { class: ClassId, nullable: bool, objects: u32 },
    Values(std::sync::Arc<[i64]>),
}

impl SlotDomain {
    /// How many values the slot can take.
    pub fn len(&self) -> u32 {
        match self {
            SlotDomain::Ref { nullable, objects, .. } => objects + u32::from(*nullable),
            SlotDomain::Values(values) => values.len() as u32,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The object an index refers to, for a reference slot.
    pub fn object(&self, index: u32) -> Option<u32> {
        match self {
            SlotDomain::Ref { nullable: true, .. } => index.checked_sub(1),
            SlotDomain::Ref { nullable: false, .. } => Some(index),
            SlotDomain::Values(_) => None,
        }
    }
}

/// The most fields a candidate may have: each is a slot the search keeps
/// (with its domain, limits and reads: tens of bytes). A search of this
/// many never ends anyway; refusing it keeps a typo in `--scope` from
/// taking gigabytes before the first candidate.
pub const MAX_SLOTS: u64 = 1 << 16;

/// Declares classes and fields; `#[derive(Korat)]` code calls it.
#[derive(Debug, Default)]
pub struct SpaceBuilder {
    classes: Vec<ClassDecl>,
    errors: Vec<String>,
}

impl SpaceBuilder {
    /// The id of the class of type `T`, if declared.
    pub fn class_id<T: 'static>(&self) -> Option<ClassId> {
        self.classes.iter().position(|c| c.type_id == TypeId::of::<T>()).map(|i| i as ClassId)
    }

    /// Declares the class of type `T` with `objects` objects (fields follow).
    pub fn add_class<T: 'static>(&mut self, name: &'static str, objects: i64) -> ClassId {
        if objects < 0 {
            self.errors.push(format!("class {name}: object count {objects} is negative"));
        }
        self.classes.push(ClassDecl {
            name,
            type_id: TypeId::of::<T>(),
            objects: objects.max(0) as usize,
            fields: Vec::new(),
            stride: 0,
            base: 0,
        });
        (self.classes.len() - 1) as ClassId
    }

    pub fn add_field(&mut self, class: ClassId, name: &'static str, kind: FieldKind) {
        let decl = &mut self.classes[class as usize];
        let offset = decl.stride;
        decl.stride += kind.width();
        decl.fields.push(FieldDecl { name, kind, offset });
    }

    /// Records a problem with the declaration, reported when the space is built.
    pub fn error(&mut self, message: String) {
        self.errors.push(message);
    }

    /// Lays the classes out in one vector: the root class (declared first) first.
    pub fn build(mut self) -> Result<Space, String> {
        if !self.errors.is_empty() {
            return Err(self.errors.join("; "));
        }
        let mut base: usize = 0;
        for class in &mut self.classes {
            class.base = base;
            base = class
                .objects
                .checked_mul(class.stride)
                .and_then(|slots| base.checked_add(slots))
                .filter(|&total| total as u64 <= MAX_SLOTS)
                .ok_or_else(|| {
                    format!(
                        "{} objects of class {} make more than {MAX_SLOTS} fields to search: a search of that \
                         many never ends",
                        class.objects, class.name
                    )
                })?;
        }
        let mut slots = Vec::with_capacity(base);
        let mut owners = Vec::with_capacity(base);
        for (c, class) in self.classes.iter().enumerate() {
            for object in 0..class.objects {
                for (f, field) in class.fields.iter().enumerate() {
                    push_slots(&self.classes, &field.kind, &mut slots);
                    owners.resize(slots.len(), (c as ClassId, object as u32, f as u32));
                }
            }
        }
        for (index, domain) in slots.iter().enumerate() {
            if domain.is_empty() {
                let (c, o, f) = owners[index];
                let class = &self.classes[c as usize];
                return Err(format!(
                    "field {}.{} of object {o} has an empty domain",
                    class.name, class.fields[f as usize].name
                ));
            }
        }
        let mut first_ids = Vec::with_capacity(self.classes.len());
        let mut objects = 0u64;
        for class in &self.classes {
            first_ids.push(objects as u32);
            objects += class.objects as u64;
            if objects > MAX_SLOTS {
                return Err(format!(
                    "the classes have more than {MAX_SLOTS} objects in all: a search of that many never ends"
                ));
            }
        }
        let objects = objects as u32;
        let (codes, value_table) = slot_codes(&self.classes, &first_ids, &slots);
        Ok(Space { classes: self.classes, slots, owners, codes, value_table, first_ids, objects })
    }
}

/// How a view decodes a slot, one flat record per slot, so that a read is
/// a few loads and no `match` on the domain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SlotCode {
    /// Values: where the slot's values start in [`Space::value_table`].
    /// References: 1 when index 0 is null, else 0.
    pub first: u32,
    /// The largest value index Korat gives the slot before symmetry
    /// breaking: the domain's length less one (references: objects less one).
    pub last: u32,
    pub is_ref: bool,
    /// References: objects of the target class.
    pub objects: u32,
    /// References: the target class, the first slot of its object 0, its
    /// slots per object, and its object 0's number among all objects.
    pub class: u32,
    pub base: u32,
    pub stride: u32,
    pub first_id: u32,
}

fn slot_codes(classes: &[ClassDecl], first_ids: &[u32], slots: &[SlotDomain]) -> (Vec<SlotCode>, Vec<i64>) {
    let mut value_table = Vec::new();
    let codes = slots
        .iter()
        .map(|domain| match domain {
            SlotDomain::Values(values) => {
                let first = value_table.len() as u32;
                value_table.extend_from_slice(values);
                SlotCode { first, last: values.len() as u32 - 1, ..SlotCode::default() }
            }
            SlotDomain::Ref { class, nullable, objects } => {
                let decl = &classes[*class as usize];
                SlotCode {
                    first: u32::from(*nullable),
                    last: objects.saturating_sub(1),
                    is_ref: true,
                    objects: *objects,
                    class: *class,
                    base: decl.base as u32,
                    stride: decl.stride as u32,
                    first_id: first_ids[*class as usize],
                }
            }
        })
        .collect();
    (codes, value_table)
}

fn push_slots(classes: &[ClassDecl], kind: &FieldKind, out: &mut Vec<SlotDomain>) {
    match kind {
        FieldKind::Ref { class, nullable } => out.push(SlotDomain::Ref {
            class: *class,
            nullable: *nullable,
            objects: classes[*class as usize].objects as u32,
        }),
        FieldKind::Values(values) => out.push(SlotDomain::Values(values.clone().into())),
        FieldKind::Array { lengths, element } => {
            out.push(SlotDomain::Values(lengths.clone().into()));
            let max = lengths.iter().copied().max().unwrap_or(0).max(0) as usize;
            for _ in 0..max {
                push_slots(classes, element, out);
            }
        }
    }
}

/// The laid-out candidate space.
#[derive(Debug, Clone)]
pub struct Space {
    pub classes: Vec<ClassDecl>,
    /// The domain of every slot.
    pub slots: Vec<SlotDomain>,
    /// For each slot: its class, object and field.
    pub owners: Vec<(ClassId, u32, u32)>,
    pub(crate) codes: Vec<SlotCode>,
    /// Every value slot's values, one after the other.
    pub(crate) value_table: Vec<i64>,
    /// Per class: the number of its object 0 among all objects.
    pub(crate) first_ids: Vec<u32>,
    /// Objects of every class.
    pub(crate) objects: u32,
}

impl Space {
    /// The first slot of field `field` of `object` of `class`.
    #[inline]
    pub fn slot(&self, class: ClassId, object: u32, field: usize) -> usize {
        let decl = &self.classes[class as usize];
        decl.base + object as usize * decl.stride + decl.fields[field].offset
    }

    /// The name of the field a slot belongs to, as `Class#object.field[i]`.
    pub fn slot_name(&self, slot: usize) -> String {
        let (c, o, f) = self.owners[slot];
        let class = &self.classes[c as usize];
        let field = &class.fields[f as usize];
        let first = self.slot(c, o, f as usize);
        match &field.kind {
            FieldKind::Array { element, .. } if slot > first => {
                let element_index = (slot - first - 1) / element.width();
                format!("{}#{o}.{}[{element_index}]", class.name, field.name)
            }
            FieldKind::Array { .. } => format!("{}#{o}.{}.length", class.name, field.name),
            _ => format!("{}#{o}.{}", class.name, field.name),
        }
    }

    /// The size of the whole space: the product of the domain sizes.
    pub fn size(&self) -> f64 {
        self.slots.iter().map(|d| f64::from(d.len())).product()
    }
}

impl Space {
    /// A valid candidate as an [`ObjectGraph`]: the objects reachable from
    /// the root (object 0 of the first class), for field extensions.
    /// `fields` holds each slot's value as a job reports it: a reference
    /// as its object's index, `None` for null.
    pub fn object_graph(&self, fields: &[Option<i64>]) -> ObjectGraph {
        let mut graph = ObjectGraph::default();
        if self.classes.first().is_none_or(|root| root.objects == 0) {
            return graph;
        }
        // (class, object) → place in the graph, in the order met.
        let mut places: FxHashMap<(ClassId, u32), u32> = FxHashMap::default();
        let mut queue = std::collections::VecDeque::from([(0, 0)]);
        places.insert((0, 0), 0);
        let root = GraphObject { class: Cow::Borrowed(self.classes[0].name), fields: Vec::new(), index: Some(0) };
        graph.objects.push(root);
        while let Some((class, object)) = queue.pop_front() {
            let place = places[&(class, object)];
            let decl = &self.classes[class as usize];
            let mut object_fields = Vec::with_capacity(decl.fields.len());
            for (f, field) in decl.fields.iter().enumerate() {
                let first = self.slot(class, object, f);
                let mut reach = |target: ClassId, index: Option<i64>| -> GraphValue {
                    let Some(index) = index else { return GraphValue::Null };
                    let key = (target, index as u32);
                    let next = places.len() as u32;
                    let place = *places.entry(key).or_insert_with(|| {
                        queue.push_back(key);
                        graph.objects.push(GraphObject {
                            class: Cow::Borrowed(self.classes[target as usize].name),
                            fields: Vec::new(),
                            index: Some(key.1),
                        });
                        next
                    });
                    GraphValue::Object(place)
                };
                let value = match &field.kind {
                    FieldKind::Ref { class: target, .. } => reach(*target, fields[first]),
                    FieldKind::Values(_) => fields[first].map_or(GraphValue::Null, |v| GraphValue::Prim(v.to_string())),
                    FieldKind::Array { element, .. } => {
                        let len = fields[first].unwrap_or(0).max(0) as usize;
                        let parts = (0..len)
                            .map(|i| {
                                let slot = first + 1 + i * element.width();
                                match element.as_ref() {
                                    FieldKind::Ref { class: target, .. } => reach(*target, fields[slot]),
                                    _ => fields[slot].map_or(GraphValue::Null, |v| GraphValue::Prim(v.to_string())),
                                }
                            })
                            .collect();
                        GraphValue::Group(GroupKind::Sequence, parts)
                    }
                };
                object_fields.push((Cow::Borrowed(field.name), value));
            }
            graph.objects[place as usize].fields = object_fields;
        }
        graph
    }
}
