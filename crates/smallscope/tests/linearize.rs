use smallscope::heap::{canonical_text, Linearizer};
use smallscope::Heap;

#[derive(Heap)]
enum Shape { Dot, Circle { r: i32 }, Pair(i32, bool) }
#[derive(Heap)]
enum Color { Red, Green }
#[derive(Heap)]
struct P { v: Vec<i32>, s: Shape, t: Shape, u: Shape, c: Color, ch: char, st: String, f: f64, o: Option<i32>, bs: Vec<Box<Q>>, e: Vec<i32> }
#[derive(Heap)]
struct Q { k: u8 }
#[derive(Heap)]
struct Unit;
#[derive(Heap)]
struct AR { #[heap(arena)] nodes: Vec<Unit>, #[heap(index = "nodes")] x: usize, #[heap(index = "nodes")] y: usize }

#[test]
fn scratch() {
    let p = P { v: vec![1, 2, 3], s: Shape::Dot, t: Shape::Circle { r: 3 }, u: Shape::Pair(4, true), c: Color::Green, ch: 'x', st: "hi".into(), f: -0.0, o: Some(5), bs: vec![Box::new(Q{k:1}), Box::new(Q{k:2})], e: vec![] };
    println!("{}", canonical_text(&p));
    let a = AR { nodes: vec![Unit, Unit], x: 0, y: 1 };
    let b = AR { nodes: vec![Unit, Unit], x: 0, y: 0 };
    println!("{}\n{}", canonical_text(&a), canonical_text(&b));
    println!("{:?}", Linearizer::new(Some(1)).linearize(&a).map(|t| t.to_vec()));
}
