// The objects of the UnityEngine facade: Object, GameObject, Component, Transform with parents,
// renderers and materials (Renderer.material instantiates the shared material on first read,
// as the scripting reference says), MeshFilter (mesh duplicates a shared mesh on first read),
// Mesh (vertices read as a copy), MonoBehaviour (coroutines run to their end), Resources,
// Debug, Random (a fixed seed), Time and the attributes scripts carry. Unity 4's component
// shortcuts (go.renderer, AddComponent("MeshFilter"), go.active) are there as Unity 4 had them.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;

namespace UnityEngine
{
    public enum PrimitiveType { Sphere = 0, Capsule = 1, Cylinder = 2, Cube = 3, Plane = 4, Quad = 5 }
    public enum Space { World = 0, Self = 1 }
    public enum LightType { Spot = 0, Directional = 1, Point = 2, Area = 3 }
    public enum HideFlags { None = 0, HideAndDontSave = 61 }
    public enum SendMessageOptions { RequireReceiver = 0, DontRequireReceiver = 1 }
    public enum ForceMode { Force = 0, Impulse = 1 }

    public class Object
    {
        string objectName = "";
        internal bool destroyed;
        public virtual string name { get { return objectName; } set { objectName = value ?? ""; } }
        public HideFlags hideFlags { get; set; }

        public static bool operator ==(Object a, Object b)
        {
            bool aNull = (object)a == null || a.destroyed, bNull = (object)b == null || b.destroyed;
            if (aNull || bNull) return aNull && bNull;
            return ReferenceEquals(a, b);
        }
        public static bool operator !=(Object a, Object b) { return !(a == b); }
        public static implicit operator bool(Object o) { return o != null; }
        public override bool Equals(object other) { return ReferenceEquals(this, other); }
        public override int GetHashCode() { return base.GetHashCode(); }
        public override string ToString() { return name + " (" + GetType().FullName + ")"; }

        public static T Instantiate<T>(T original) where T : Object { return (T)Scene.Instantiate(original, null, false, null, null); }
        public static T Instantiate<T>(T original, Transform parent) where T : Object { return (T)Scene.Instantiate(original, parent, false, null, null); }
        public static T Instantiate<T>(T original, Transform parent, bool worldPositionStays) where T : Object { return (T)Scene.Instantiate(original, parent, worldPositionStays, null, null); }
        public static T Instantiate<T>(T original, Vector3 position, Quaternion rotation) where T : Object { return (T)Scene.Instantiate(original, null, true, position, rotation); }
        public static T Instantiate<T>(T original, Vector3 position, Quaternion rotation, Transform parent) where T : Object { return (T)Scene.Instantiate(original, parent, true, position, rotation); }
        public static void Destroy(Object o) { Scene.Destroy(o); }
        public static void Destroy(Object o, float t) { if (t <= 0f) Scene.Destroy(o); }
        public static void DestroyImmediate(Object o) { Scene.Destroy(o); }
        public static void DestroyImmediate(Object o, bool allowDestroyingAssets) { Scene.Destroy(o); }
        public static void DontDestroyOnLoad(Object o) { }
        public static T FindObjectOfType<T>() where T : Object { return Scene.FindObjectsOfType<T>().FirstOrDefault(); }
        public static T[] FindObjectsOfType<T>() where T : Object { return Scene.FindObjectsOfType<T>(); }
    }

    public class Shader : Object
    {
        public static Shader Find(string name) { return new Shader { name = name ?? "" }; }
        public static int PropertyToID(string name) { return name.GetHashCode(); }
    }

    public class Texture : Object { }
    public class Texture2D : Texture { public Texture2D(int w, int h) { } }

    public class Material : Object
    {
        internal Color colour = Color.white;
        // Whether a script set the material's colour (Unity's default material is white).
        internal bool colourSet;
        public Shader shader;
        public int renderQueue;
        public Texture mainTexture;
        public Material(Shader shader) { this.shader = shader; name = "New Material"; }
        public Material(Material source)
        {
            shader = source.shader; colour = source.colour; colourSet = source.colourSet; name = source.name;
        }
        public Color color { get { return colour; } set { colour = value; colourSet = true; } }
        static readonly string[] ColourProperties = { "_Color", "_BaseColor", "_MainColor", "_TintColor", "_Albedo", "_UnlitColor" };
        public void SetColor(string property, Color value) { if (ColourProperties.Contains(property)) color = value; }
        public void SetColor(int property, Color value) { }
        public Color GetColor(string property) { return colour; }
        public void SetFloat(string property, float value) { }
        public void SetInt(string property, int value) { }
        public void SetTexture(string property, Texture value) { }
        public void EnableKeyword(string keyword) { }
        public void DisableKeyword(string keyword) { }
        public void CopyPropertiesFromMaterial(Material m) { colour = m.colour; colourSet = m.colourSet; }
        public bool HasProperty(string property) { return true; }
    }

    public class Mesh : Object
    {
        internal Vector3[] vertexData = new Vector3[0];
        // The built-in primitive this mesh is (its vertices unchanged since), or null.
        internal string primitive;
        public int[] triangles = new int[0];
        public Vector3[] normals = new Vector3[0];
        public Vector2[] uv = new Vector2[0];
        public Color[] colors = new Color[0];
        public int subMeshCount = 1;
        public Rendering.IndexFormat indexFormat;
        public Vector3[] vertices
        {
            get { return (Vector3[])vertexData.Clone(); }
            set { vertexData = value == null ? new Vector3[0] : (Vector3[])value.Clone(); primitive = null; }
        }
        public int vertexCount { get { return vertexData.Length; } }
        public Bounds bounds
        {
            get
            {
                if (vertexData.Length == 0) return new Bounds(Vector3.zero, Vector3.zero);
                var b = new Bounds(vertexData[0], Vector3.zero);
                foreach (var v in vertexData) b.Encapsulate(v);
                return b;
            }
        }
        public void SetVertices(List<Vector3> list) { vertices = list.ToArray(); }
        public void SetVertices(Vector3[] list) { vertices = list; }
        public void SetTriangles(int[] t, int submesh) { triangles = t; }
        public void SetTriangles(List<int> t, int submesh) { triangles = t.ToArray(); }
        public void SetIndices(int[] indices, MeshTopology topology, int submesh) { triangles = indices; }
        public void SetNormals(List<Vector3> n) { normals = n.ToArray(); }
        public void SetUVs(int channel, List<Vector2> u) { uv = u.ToArray(); }
        public void SetColors(List<Color> c) { colors = c.ToArray(); }
        public void RecalculateNormals() { }
        public void RecalculateBounds() { }
        public void RecalculateTangents() { }
        public void Optimize() { }
        public void MarkDynamic() { }
        public void UploadMeshData(bool markNoLongerReadable) { }
        public void Clear() { vertexData = new Vector3[0]; triangles = new int[0]; primitive = null; }
        internal Mesh Copy()
        {
            return new Mesh { vertexData = (Vector3[])vertexData.Clone(), primitive = primitive, triangles = triangles, name = name };
        }
    }

    public enum MeshTopology { Triangles = 0, Quads = 2, Lines = 3, Points = 5 }

    public class Component : Object
    {
        internal GameObject owner;
        public GameObject gameObject { get { return owner; } }
        public Transform transform { get { return owner.transform; } }
        public override string name { get { return owner.name; } set { owner.name = value; } }
        public string tag { get { return owner.tag; } set { owner.tag = value; } }
        public T GetComponent<T>() { return owner.GetComponent<T>(); }
        public Component GetComponent(Type type) { return owner.GetComponent(type); }
        public Component GetComponent(string type) { return owner.GetComponent(type); }
        public T GetComponentInChildren<T>() { return owner.GetComponentInChildren<T>(); }
        public T[] GetComponentsInChildren<T>() { return owner.GetComponentsInChildren<T>(); }
        public T[] GetComponents<T>() { return owner.GetComponents<T>(); }
        public bool CompareTag(string t) { return owner.tag == t; }
        public void SendMessage(string method) { }
        public void SendMessage(string method, object value) { }
        // Unity 4's shortcuts.
        public Renderer renderer { get { return owner.renderer; } }
        public Collider collider { get { return owner.collider; } }
        public Rigidbody rigidbody { get { return owner.rigidbody; } }
    }

    public class Behaviour : Component
    {
        public bool enabled = true;
        public bool isActiveAndEnabled { get { return enabled && owner.activeInHierarchy; } }
    }

    public class YieldInstruction { }
    public sealed class WaitForSeconds : YieldInstruction { public WaitForSeconds(float seconds) { } }
    public sealed class WaitForSecondsRealtime : YieldInstruction { public WaitForSecondsRealtime(float seconds) { } }
    public sealed class WaitForEndOfFrame : YieldInstruction { }
    public sealed class WaitForFixedUpdate : YieldInstruction { }
    public sealed class Coroutine : YieldInstruction { }

    public class MonoBehaviour : Behaviour
    {
        // A coroutine runs to its end at once: the scene is read after every wait is over.
        public Coroutine StartCoroutine(IEnumerator routine)
        {
            int steps = 0;
            var stack = new Stack<IEnumerator>();
            stack.Push(routine);
            while (stack.Count > 0 && steps++ < 100000)
            {
                IEnumerator top = stack.Peek();
                if (!top.MoveNext()) { stack.Pop(); continue; }
                var inner = top.Current as IEnumerator;
                if (inner != null) stack.Push(inner);
            }
            return new Coroutine();
        }
        public Coroutine StartCoroutine(string method)
        {
            var info = GetType().GetMethod(method, System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.NonPublic);
            return info == null ? null : StartCoroutine((IEnumerator)info.Invoke(this, null));
        }
        public void StopAllCoroutines() { }
        public void StopCoroutine(Coroutine c) { }
        public void StopCoroutine(string method) { }
        public void Invoke(string method, float time) { }
        public void InvokeRepeating(string method, float time, float repeatRate) { }
        public void CancelInvoke() { }
        public static void print(object message) { Debug.Log(message); }
    }

    public class ScriptableObject : Object
    {
        public static T CreateInstance<T>() where T : ScriptableObject, new() { return new T(); }
    }

    public class Renderer : Component
    {
        internal List<Material> shared = new List<Material>();
        // The materials this renderer instantiated (reading material gives one of these).
        internal HashSet<Material> owned = new HashSet<Material>();
        public bool enabled = true;
        public Rendering.ShadowCastingMode shadowCastingMode;
        public bool receiveShadows = true;
        public Material sharedMaterial
        {
            get { return shared.Count > 0 ? shared[0] : null; }
            set { if (shared.Count == 0) shared.Add(value); else shared[0] = value; }
        }
        public Material[] sharedMaterials
        {
            get { return shared.ToArray(); }
            set { shared = new List<Material>(value); }
        }
        // "Modifying material will change the material for this object only": the shared
        // material is instantiated on first read. A renderer without material gets a new one
        // (an assumption the parser makes too; not checked against Unity).
        public Material material
        {
            get
            {
                if (shared.Count == 0) shared.Add(new Material(Shader.Find("Standard")) { name = "Default-Material" });
                if (shared[0] != null && !owned.Contains(shared[0]))
                {
                    var copy = new Material(shared[0]) { name = shared[0].name + " (Instance)" };
                    owned.Add(copy);
                    shared[0] = copy;
                }
                return shared[0];
            }
            set { sharedMaterial = value; owned.Add(value); }
        }
        public Material[] materials
        {
            get { var first = material; return shared.ToArray(); }
            set { shared = new List<Material>(value); foreach (var m in value) owned.Add(m); }
        }
        public Bounds bounds { get { return new Bounds(transform.position, Vector3.one); } }
    }

    public class MeshRenderer : Renderer { }
    public class SkinnedMeshRenderer : Renderer { public Mesh sharedMesh; }
    public class LineRenderer : Renderer { public int positionCount; public void SetPosition(int i, Vector3 p) { } }

    public class MeshFilter : Component
    {
        internal Mesh held;
        bool ownsMesh;
        public Mesh sharedMesh { get { return held; } set { held = value; ownsMesh = false; } }
        // "If a mesh is assigned to the mesh filter already, then first query of mesh property
        // will create a duplicate of it, and this copy will be used."
        public Mesh mesh
        {
            get
            {
                if (held == null) { held = new Mesh(); ownsMesh = true; }
                else if (!ownsMesh) { held = held.Copy(); ownsMesh = true; }
                return held;
            }
            set { held = value; ownsMesh = true; }
        }
    }

    public class Collider : Component { public bool enabled = true; public bool isTrigger; public Material material; }
    public class BoxCollider : Collider { public Vector3 size = Vector3.one; public Vector3 center; }
    public class SphereCollider : Collider { public float radius = 0.5f; public Vector3 center; }
    public class CapsuleCollider : Collider { public float radius = 0.5f; public float height = 2f; public Vector3 center; }
    public class MeshCollider : Collider { public Mesh sharedMesh; public bool convex; }
    public class Collider2D : Component { }
    public class Rigidbody : Component
    {
        public bool useGravity = true; public bool isKinematic; public float mass = 1f; public Vector3 velocity;
        public void AddForce(Vector3 f) { } public void AddForce(Vector3 f, ForceMode m) { }
    }
    public class Rigidbody2D : Component { }
    public class Light : Behaviour
    {
        public LightType type; public Color color = Color.white; public float intensity = 1f; public float range = 10f;
        public float spotAngle = 30f; public LightShadows shadows;
    }
    public enum LightShadows { None = 0, Hard = 1, Soft = 2 }
    public enum CameraClearFlags { Skybox = 1, SolidColor = 2 }
    public class Camera : Behaviour
    {
        static Camera mainCamera;
        public static Camera main
        {
            get
            {
                if (mainCamera == null || mainCamera.destroyed)
                    mainCamera = new GameObject("Main Camera").AddComponent<Camera>();
                return mainCamera;
            }
        }
        public Color backgroundColor; public float fieldOfView = 60f; public CameraClearFlags clearFlags;
        public bool orthographic; public float orthographicSize = 5f; public float nearClipPlane = 0.3f; public float farClipPlane = 1000f;
    }
    public class AudioSource : Behaviour { }
    public class Animation : Behaviour { }
    public class Animator : Behaviour { }

    public static class Debug
    {
        // Logs go to the standard error: the standard output carries the harness's report.
        public static void Log(object message) { Console.Error.WriteLine(message); }
        public static void Log(object message, Object context) { Log(message); }
        public static void LogWarning(object message) { Log(message); }
        public static void LogWarning(object message, Object context) { Log(message); }
        public static void LogError(object message) { Log(message); }
        public static void LogError(object message, Object context) { Log(message); }
        public static void LogFormat(string format, params object[] args) { Log(string.Format(format, args)); }
        public static void LogException(Exception e) { Log(e); }
        public static void DrawLine(Vector3 a, Vector3 b) { }
        public static void DrawLine(Vector3 a, Vector3 b, Color c) { }
        public static void DrawRay(Vector3 a, Vector3 d) { }
        public static void Assert(bool condition) { }
    }

    // A fixed seed: a reply drawing random numbers builds one scene of the many it could.
    public static class Random
    {
        static System.Random generator = new System.Random(0);
        public static void InitState(int seed) { generator = new System.Random(seed); }
        public static float value { get { return (float)generator.NextDouble(); } }
        public static float Range(float min, float max) { return min + (float)generator.NextDouble() * (max - min); }
        public static int Range(int min, int max) { return max <= min ? min : generator.Next(min, max); }
        public static Vector3 insideUnitSphere
        {
            get { Vector3 v; do { v = new Vector3(Range(-1f, 1f), Range(-1f, 1f), Range(-1f, 1f)); } while (v.sqrMagnitude > 1f); return v; }
        }
        public static Vector3 onUnitSphere { get { return insideUnitSphere.normalized; } }
        public static Vector2 insideUnitCircle
        {
            get { Vector2 v; do { v = new Vector2(Range(-1f, 1f), Range(-1f, 1f)); } while (v.sqrMagnitude > 1f); return v; }
        }
        public static Quaternion rotation { get { return Quaternion.Euler(Range(0f, 360f), Range(0f, 360f), Range(0f, 360f)); } }
        public static Color ColorHSV() { return Color.HSVToRGB(value, value, value); }
        public static Color ColorHSV(float hMin, float hMax, float sMin, float sMax, float vMin, float vMax)
        {
            return Color.HSVToRGB(Range(hMin, hMax), Range(sMin, sMax), Range(vMin, vMax));
        }
    }

    public static class Time
    {
        public static float time = 0f, deltaTime = 0.02f, fixedDeltaTime = 0.02f, timeScale = 1f, realtimeSinceStartup = 0f;
        public static int frameCount = 0;
    }

    public static class Application
    {
        public static int targetFrameRate = -1;
        public static bool isPlaying = true;
        public static bool isEditor = true;
        public static void Quit() { }
    }

    public static class RenderSettings
    {
        public static Color ambientLight = new Color(0.2f, 0.2f, 0.2f);
        public static Material skybox;
        public static Light sun;
        public static bool fog;
        public static Color fogColor;
        public static Rendering.AmbientMode ambientMode;
        public static Color ambientSkyColor, ambientEquatorColor, ambientGroundColor;
    }

    public static class QualitySettings { public static int antiAliasing; public static int shadowDistance; }
    public static class Screen { public static int width = 1920, height = 1080; }
    public static class Input
    {
        public static bool GetKey(KeyCode k) { return false; }
        public static bool GetKeyDown(KeyCode k) { return false; }
        public static float GetAxis(string axis) { return 0f; }
        public static bool GetMouseButton(int b) { return false; }
        public static Vector3 mousePosition { get { return Vector3.zero; } }
    }
    public enum KeyCode { None = 0, Space = 32, Escape = 27, R = 114 }

    public static class Resources
    {
        public static T GetBuiltinResource<T>(string path) where T : Object
        {
            if (typeof(T) == typeof(Mesh))
            {
                string stem = path.Replace(".fbx", "").Replace("New-", "");
                foreach (PrimitiveType type in Enum.GetValues(typeof(PrimitiveType)))
                    if (type.ToString() == stem) return (T)(Object)Primitives.Shared(type);
            }
            if (typeof(T) == typeof(Material)) return (T)(Object)new Material(Shader.Find("Standard"));
            return null;
        }
        public static T Load<T>(string path) where T : Object { return null; }
        public static Object Load(string path) { return null; }
    }

    namespace Rendering
    {
        public enum ShadowCastingMode { Off = 0, On = 1, TwoSided = 2, ShadowsOnly = 3 }
        public enum IndexFormat { UInt16 = 0, UInt32 = 1 }
        public enum AmbientMode { Skybox = 0, Trilight = 1, Flat = 3 }
    }

    [AttributeUsage(AttributeTargets.All, AllowMultiple = true)] public class RequireComponent : Attribute { public RequireComponent(Type t) { } public RequireComponent(Type a, Type b) { } }
    [AttributeUsage(AttributeTargets.All)] public class SerializeField : Attribute { }
    [AttributeUsage(AttributeTargets.All)] public class HideInInspector : Attribute { }
    [AttributeUsage(AttributeTargets.All)] public class HeaderAttribute : Attribute { public HeaderAttribute(string h) { } }
    [AttributeUsage(AttributeTargets.All)] public class TooltipAttribute : Attribute { public TooltipAttribute(string t) { } }
    [AttributeUsage(AttributeTargets.All)] public class SpaceAttribute : Attribute { public SpaceAttribute() { } public SpaceAttribute(float h) { } }
    [AttributeUsage(AttributeTargets.All)] public class RangeAttribute : Attribute { public RangeAttribute(float min, float max) { } }
    [AttributeUsage(AttributeTargets.All)] public class MinAttribute : Attribute { public MinAttribute(float min) { } }
    [AttributeUsage(AttributeTargets.All)] public class TextAreaAttribute : Attribute { }
    [AttributeUsage(AttributeTargets.All)] public class ExecuteInEditMode : Attribute { }
    [AttributeUsage(AttributeTargets.All)] public class ExecuteAlways : Attribute { }
    [AttributeUsage(AttributeTargets.All)] public class DisallowMultipleComponent : Attribute { }
    [AttributeUsage(AttributeTargets.All)] public class ContextMenu : Attribute { public ContextMenu(string name) { } }
    [AttributeUsage(AttributeTargets.All)] public class AddComponentMenu : Attribute { public AddComponentMenu(string name) { } }
    [AttributeUsage(AttributeTargets.All)] public class CreateAssetMenuAttribute : Attribute { public string fileName, menuName; }
    public enum RuntimeInitializeLoadType { AfterSceneLoad = 0, BeforeSceneLoad = 1 }
    [AttributeUsage(AttributeTargets.Method)]
    public class RuntimeInitializeOnLoadMethodAttribute : Attribute
    {
        public RuntimeInitializeOnLoadMethodAttribute() { }
        public RuntimeInitializeOnLoadMethodAttribute(RuntimeInitializeLoadType t) { }
    }
}
