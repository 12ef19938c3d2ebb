//! The routing family this pack serves, with the words that send a request to it.
//! Cues are CAD words only: "boolean", "subtract", "bevel", "export" and "stl" stay with
//! the Blender packs' `mutate` and `io` (a goal without a CAD word is a Blender goal),
//! and "volume" stays out ("a volume of fog" is a material).

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("cad", "Parametric CAD in FreeCAD: solids in millimetres, booleans, fillets and chamfers, measuring volume and bounds, STEP and IGES in, STEP, STL and OBJ out")
            .cues(6, &["freecad", "free cad", "cad", "step file", "stp", "iges", "igs", "fillet", "fillets", "chamfer", "chamfers", "parametric", "solid model", "cad part"])
            .cues(4, &["mm3", "cubic millimetres", "cubic millimeters", "centre of mass", "center of mass", "surface area", "tessellation", "tessellate"]),
    ]
}
