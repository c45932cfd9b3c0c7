#version 330 core
// Replaces pyrender's segmentation.frag. The instance code pyrender passes as `color`
// (low byte, high byte, 0) goes to green and blue; red carries the diffuse light of the
// camera-relative rig of render/shading.py as a code 1..255 (0, the clear colour, means that
// nothing was drawn). The capitalised names are filled in by pyrender from render/shading.py.
uniform vec3 color;
in vec3 view_normal;
out vec4 frag_color;

void main()
{
    vec3 n = normalize(view_normal);
    if (!gl_FrontFacing) {
        n = -n;
    }
    float light = AMBIENT_LIGHT
        + KEY_LIGHT_WEIGHT * max(dot(n, KEY_LIGHT_DIRECTION), 0.0)
        + FILL_LIGHT_WEIGHT * max(dot(n, FILL_LIGHT_DIRECTION), 0.0);
    float code = 1.0 + floor(SHADE_STEPS * clamp(light / SHADE_MAX, 0.0, 1.0) + 0.5);
    frag_color = vec4(code / 255.0, color.r, color.g, 1.0);
}
