#version 330 core
// Replaces pyrender's segmentation.vert (render/offscreen.py, _ShaderCache): the same
// transform, plus the surface normal in camera space for render/shaders/shaded_ids.frag.
layout(location = 0) in vec3 position;
#ifdef NORMAL_LOC
layout(location = NORMAL_LOC) in vec3 normal;
#endif
layout(location = INST_M_LOC) in mat4 inst_m;

uniform mat4 P;
uniform mat4 V;
uniform mat4 M;

out vec3 view_normal;

void main()
{
    mat4 model = M * inst_m;
    gl_Position = P * V * model * vec4(position, 1.0);
#ifdef NORMAL_LOC
    // Normals follow the inverse transpose: objects are scaled unevenly.
    view_normal = mat3(V) * (transpose(inverse(mat3(model))) * normal);
#else
    view_normal = vec3(0.0, 0.0, 1.0);
#endif
}
