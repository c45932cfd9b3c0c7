// GameObjects, Transforms and the scene of the UnityEngine facade: GameObject.CreatePrimitive
// with Unity's primitive sizes (cube 1, sphere diameter 1, cylinder and capsule 1 wide and 2
// tall, plane 10 x 10, quad 1 x 1), components, Instantiate, Destroy, and Transform's local and
// world values with parents, as the scripting reference defines them.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;

// The driver reads the scene; the replies, compiled into an assembly of their own, cannot.
[assembly: System.Runtime.CompilerServices.InternalsVisibleTo("UnityHarness")]

namespace UnityEngine
{
    public sealed class GameObject : Object
    {
        internal readonly List<Component> components = new List<Component>();
        readonly Transform transformComponent;
        bool activeSelfValue = true;
        public string tag = "Untagged";
        public int layer;
        public bool isStatic;

        public GameObject() : this("New Game Object") { }
        public GameObject(string name)
        {
            this.name = name;
            transformComponent = new Transform();
            transformComponent.owner = this;
            components.Add(transformComponent);
            Scene.Register(this);
        }
        public GameObject(string name, params Type[] types) : this(name)
        {
            foreach (var type in types) AddComponent(type);
        }

        public Transform transform { get { return transformComponent; } }
        public GameObject gameObject { get { return this; } }

        public T AddComponent<T>() where T : Component { return (T)AddComponent(typeof(T)); }
        public Component AddComponent(Type type)
        {
            if (type == typeof(Transform)) return transformComponent;
            if (type == typeof(Renderer)) type = typeof(MeshRenderer);
            var made = (Component)Activator.CreateInstance(type, true);
            made.owner = this;
            components.Add(made);
            var behaviour = made as MonoBehaviour;
            if (behaviour != null) Scene.Awaken(behaviour);
            return made;
        }
        // Unity 4: AddComponent("MeshFilter").
        public Component AddComponent(string typeName) { return AddComponent(Scene.TypeNamed(typeName)); }

        public T GetComponent<T>()
        {
            foreach (var c in components) if (c is T) return (T)(object)c;
            return default(T);
        }
        public Component GetComponent(Type type)
        {
            foreach (var c in components) if (type.IsInstanceOfType(c)) return c;
            return null;
        }
        public Component GetComponent(string typeName) { return GetComponent(Scene.TypeNamed(typeName)); }
        public T[] GetComponents<T>() { return components.OfType<T>().ToArray(); }
        public T GetComponentInChildren<T>() { return GetComponentsInChildren<T>().FirstOrDefault(); }
        public T[] GetComponentsInChildren<T>()
        {
            var found = new List<T>(components.OfType<T>());
            foreach (Transform child in transformComponent) found.AddRange(child.gameObject.GetComponentsInChildren<T>());
            return found.ToArray();
        }
        public bool TryGetComponent<T>(out T component) { component = GetComponent<T>(); return component != null; }

        public void SetActive(bool value) { activeSelfValue = value; }
        public bool activeSelf { get { return activeSelfValue; } }
        public bool activeInHierarchy
        {
            get
            {
                var parent = transformComponent.parent;
                return activeSelfValue && (parent == null || parent.gameObject.activeInHierarchy);
            }
        }
        // Unity 4's active.
        public bool active { get { return activeSelfValue; } set { activeSelfValue = value; } }
        public bool CompareTag(string t) { return tag == t; }
        public void SendMessage(string method) { }
        public void SendMessage(string method, object value) { }
        public void BroadcastMessage(string method) { }

        // Unity 4's component shortcuts.
        public Renderer renderer { get { return GetComponent<Renderer>(); } }
        public Collider collider { get { return GetComponent<Collider>(); } }
        public Rigidbody rigidbody { get { return GetComponent<Rigidbody>(); } }
        public Light light { get { return GetComponent<Light>(); } }
        public Camera camera { get { return GetComponent<Camera>(); } }

        public static GameObject CreatePrimitive(PrimitiveType type)
        {
            var made = new GameObject(type.ToString());
            made.AddComponent<MeshFilter>().sharedMesh = Primitives.Shared(type);
            made.AddComponent<MeshRenderer>().sharedMaterial = Primitives.DefaultMaterial;
            switch (type)
            {
                case PrimitiveType.Sphere: made.AddComponent<SphereCollider>(); break;
                case PrimitiveType.Capsule: made.AddComponent<CapsuleCollider>(); break;
                case PrimitiveType.Cube: made.AddComponent<BoxCollider>(); break;
                default: made.AddComponent<MeshCollider>(); break;
            }
            return made;
        }

        public static GameObject Find(string path)
        {
            string[] parts = path.Trim('/').Split('/');
            foreach (var go in Scene.Alive())
            {
                if (!go.activeInHierarchy || go.name != parts[parts.Length - 1]) continue;
                Transform t = go.transform.parent;
                bool matches = true;
                for (int i = parts.Length - 2; i >= 0 && matches; i--)
                {
                    matches = t != null && t.name == parts[i];
                    t = t != null ? t.parent : null;
                }
                if (matches) return go;
            }
            return null;
        }
        public static GameObject FindWithTag(string t) { return Scene.Alive().FirstOrDefault(g => g.tag == t && g.activeInHierarchy); }
        public static GameObject FindGameObjectWithTag(string t) { return FindWithTag(t); }
        public static GameObject[] FindGameObjectsWithTag(string t) { return Scene.Alive().Where(g => g.tag == t && g.activeInHierarchy).ToArray(); }
    }

    public class Transform : Component, IEnumerable
    {
        internal Vector3 lp = Vector3.zero;
        internal Quaternion lr = Quaternion.identity;
        internal Vector3 ls = Vector3.one;
        Transform parentTransform;
        internal readonly List<Transform> children = new List<Transform>();
        public bool hasChanged;

        public Vector3 localPosition { get { return lp; } set { lp = value; } }
        public Quaternion localRotation { get { return lr; } set { lr = value; } }
        public Vector3 localScale { get { return ls; } set { ls = value; } }
        public Vector3 localEulerAngles { get { return lr.eulerAngles; } set { lr = Quaternion.Euler(value); } }

        public Matrix4x4 localToWorldMatrix
        {
            get
            {
                var local = Matrix4x4.TRS(lp, lr, ls);
                return parentTransform == null ? local : parentTransform.localToWorldMatrix * local;
            }
        }
        public Matrix4x4 worldToLocalMatrix { get { return localToWorldMatrix.inverse; } }

        public Vector3 position
        {
            get { return parentTransform == null ? lp : parentTransform.localToWorldMatrix.MultiplyPoint3x4(lp); }
            set { lp = parentTransform == null ? value : parentTransform.worldToLocalMatrix.MultiplyPoint3x4(value); }
        }
        public Quaternion rotation
        {
            get { return parentTransform == null ? lr : parentTransform.rotation * lr; }
            set { lr = parentTransform == null ? value : Quaternion.Inverse(parentTransform.rotation) * value; }
        }
        public Vector3 eulerAngles { get { return rotation.eulerAngles; } set { rotation = Quaternion.Euler(value); } }
        // The world scale, read off the world matrix with the world rotation taken out.
        public Vector3 lossyScale
        {
            get
            {
                Matrix4x4 m = localToWorldMatrix;
                Quaternion inverse = Quaternion.Inverse(rotation);
                Vector3 x = inverse * m.MultiplyVector(Vector3.right);
                Vector3 y = inverse * m.MultiplyVector(Vector3.up);
                Vector3 z = inverse * m.MultiplyVector(Vector3.forward);
                return new Vector3(x.x, y.y, z.z);
            }
        }
        public Vector3 right { get { return rotation * Vector3.right; } set { rotation = Quaternion.FromToRotation(Vector3.right, value); } }
        public Vector3 up { get { return rotation * Vector3.up; } set { rotation = Quaternion.FromToRotation(Vector3.up, value); } }
        public Vector3 forward { get { return rotation * Vector3.forward; } set { rotation = Quaternion.LookRotation(value); } }

        public Transform parent { get { return parentTransform; } set { SetParent(value, true); } }
        public Transform root { get { return parentTransform == null ? this : parentTransform.root; } }
        public void SetParent(Transform p) { SetParent(p, true); }
        public void SetParent(Transform p, bool worldPositionStays)
        {
            Vector3 worldPosition = position;
            Quaternion worldRotation = rotation;
            Matrix4x4 world = localToWorldMatrix;
            if (parentTransform != null) parentTransform.children.Remove(this);
            parentTransform = p;
            if (p != null) p.children.Add(this);
            if (!worldPositionStays) return;
            position = worldPosition;
            rotation = worldRotation;
            // The local scale that keeps the world scale, as far as a scale can.
            Matrix4x4 local = p == null ? world : p.worldToLocalMatrix * world;
            Quaternion inverse = Quaternion.Inverse(lr);
            Vector3 sx = inverse * local.MultiplyVector(Vector3.right);
            Vector3 sy = inverse * local.MultiplyVector(Vector3.up);
            Vector3 sz = inverse * local.MultiplyVector(Vector3.forward);
            ls = new Vector3(sx.x, sy.y, sz.z);
        }
        public int childCount { get { return children.Count; } }
        public Transform GetChild(int index) { return children[index]; }
        public Transform Find(string n) { return children.FirstOrDefault(c => c.name == n); }
        public bool IsChildOf(Transform p) { return this == p || (parentTransform != null && parentTransform.IsChildOf(p)); }
        public void DetachChildren() { foreach (var c in children.ToArray()) c.SetParent(null, true); }
        public int GetSiblingIndex() { return parentTransform == null ? 0 : parentTransform.children.IndexOf(this); }
        public void SetSiblingIndex(int i) { }
        public void SetAsFirstSibling() { }
        public void SetAsLastSibling() { }
        public IEnumerator GetEnumerator() { return children.ToList().GetEnumerator(); }

        public void Translate(Vector3 translation) { Translate(translation, Space.Self); }
        public void Translate(Vector3 translation, Space relativeTo)
        {
            position += relativeTo == Space.World ? translation : TransformDirection(translation);
        }
        public void Translate(float x, float y, float z) { Translate(new Vector3(x, y, z), Space.Self); }
        public void Translate(float x, float y, float z, Space relativeTo) { Translate(new Vector3(x, y, z), relativeTo); }
        public void Translate(Vector3 translation, Transform relativeTo)
        {
            position += relativeTo == null ? translation : relativeTo.TransformDirection(translation);
        }

        public void Rotate(Vector3 eulers) { Rotate(eulers, Space.Self); }
        public void Rotate(Vector3 eulers, Space relativeTo)
        {
            Quaternion turn = Quaternion.Euler(eulers);
            if (relativeTo == Space.Self) lr = lr * turn;
            else rotation = rotation * (Quaternion.Inverse(rotation) * turn * rotation);
        }
        public void Rotate(float x, float y, float z) { Rotate(new Vector3(x, y, z), Space.Self); }
        public void Rotate(float x, float y, float z, Space relativeTo) { Rotate(new Vector3(x, y, z), relativeTo); }
        public void Rotate(Vector3 axis, float angle) { Rotate(axis, angle, Space.Self); }
        public void Rotate(Vector3 axis, float angle, Space relativeTo)
        {
            Vector3 worldAxis = relativeTo == Space.Self ? TransformDirection(axis) : axis;
            rotation = Quaternion.AngleAxis(angle, worldAxis) * rotation;
        }
        public void RotateAround(Vector3 point, Vector3 axis, float angle)
        {
            Quaternion turn = Quaternion.AngleAxis(angle, axis);
            position = point + turn * (position - point);
            rotation = turn * rotation;
        }
        public void LookAt(Transform target) { LookAt(target.position, Vector3.up); }
        public void LookAt(Transform target, Vector3 worldUp) { LookAt(target.position, worldUp); }
        public void LookAt(Vector3 worldPosition) { LookAt(worldPosition, Vector3.up); }
        public void LookAt(Vector3 worldPosition, Vector3 worldUp)
        {
            Vector3 forwardDirection = worldPosition - position;
            if (forwardDirection.sqrMagnitude > 1e-12f) rotation = Quaternion.LookRotation(forwardDirection, worldUp);
        }
        public Vector3 TransformPoint(Vector3 p) { return localToWorldMatrix.MultiplyPoint3x4(p); }
        public Vector3 TransformPoint(float x, float y, float z) { return TransformPoint(new Vector3(x, y, z)); }
        public Vector3 InverseTransformPoint(Vector3 p) { return worldToLocalMatrix.MultiplyPoint3x4(p); }
        public Vector3 TransformDirection(Vector3 d) { return rotation * d; }
        public Vector3 InverseTransformDirection(Vector3 d) { return Quaternion.Inverse(rotation) * d; }
        public Vector3 TransformVector(Vector3 v) { return localToWorldMatrix.MultiplyVector(v); }
        public void SetPositionAndRotation(Vector3 p, Quaternion r) { position = p; rotation = r; }
        public void SetLocalPositionAndRotation(Vector3 p, Quaternion r) { lp = p; lr = r; }
    }

    // The built-in meshes: Unity's sizes, a tessellation of ours that reaches each shape's
    // extremes along its axes (Unity's own meshes are not shipped here).
    public static class Primitives
    {
        static readonly Dictionary<PrimitiveType, Mesh> shared = new Dictionary<PrimitiveType, Mesh>();
        internal static readonly Material DefaultMaterial = new Material(Shader.Find("Standard")) { name = "Default-Material" };

        public static Mesh Shared(PrimitiveType type)
        {
            Mesh mesh;
            if (!shared.TryGetValue(type, out mesh))
            {
                mesh = new Mesh { name = type.ToString(), vertexData = Vertices(type).ToArray(), primitive = type.ToString() };
                shared[type] = mesh;
            }
            return mesh;
        }

        static IEnumerable<Vector3> Vertices(PrimitiveType type)
        {
            const int around = 24;
            switch (type)
            {
                case PrimitiveType.Cube:
                    for (int i = 0; i < 8; i++)
                        yield return new Vector3((i & 1) == 0 ? -0.5f : 0.5f, (i & 2) == 0 ? -0.5f : 0.5f, (i & 4) == 0 ? -0.5f : 0.5f);
                    break;
                case PrimitiveType.Sphere:
                    foreach (var v in Ring(0.5f, 0f, around, 16)) yield return v;
                    break;
                case PrimitiveType.Capsule:
                    foreach (var v in Ring(0.5f, 0.5f, around, 16)) yield return v;
                    break;
                case PrimitiveType.Cylinder:
                    for (int j = 0; j < 2; j++)
                        for (int i = 0; i < around; i++)
                        {
                            double a = 2 * Math.PI * i / around;
                            yield return new Vector3(0.5f * (float)Math.Cos(a), j == 0 ? -1f : 1f, 0.5f * (float)Math.Sin(a));
                        }
                    yield return new Vector3(0f, -1f, 0f);
                    yield return new Vector3(0f, 1f, 0f);
                    break;
                case PrimitiveType.Plane:
                    for (int i = 0; i <= 10; i++)
                        for (int j = 0; j <= 10; j++)
                            yield return new Vector3(-5f + i, 0f, -5f + j);
                    break;
                case PrimitiveType.Quad:
                    yield return new Vector3(-0.5f, -0.5f, 0f);
                    yield return new Vector3(0.5f, -0.5f, 0f);
                    yield return new Vector3(-0.5f, 0.5f, 0f);
                    yield return new Vector3(0.5f, 0.5f, 0f);
                    break;
            }
        }

        // A sphere of radius r cut at its equator, its halves moved apart by 2 * half (a
        // capsule; a sphere when half is 0).
        static IEnumerable<Vector3> Ring(float r, float half, int around, int rings)
        {
            for (int k = 0; k <= rings; k++)
            {
                double polar = Math.PI * k / rings;
                float y = r * (float)Math.Cos(polar), radius = r * (float)Math.Sin(polar);
                var heights = new List<float>();
                if (k * 2 < rings) heights.Add(y + half);
                else if (k * 2 > rings) heights.Add(y - half);
                else { heights.Add(half); if (half > 0) heights.Add(-half); }
                foreach (float h in heights)
                    for (int i = 0; i < around; i++)
                    {
                        double a = 2 * Math.PI * i / around;
                        yield return new Vector3(radius * (float)Math.Cos(a), h, radius * (float)Math.Sin(a));
                    }
            }
        }
    }

    // What the harness reads that scripts cannot (internal: only the driver's assembly,
    // UnityHarness, sees it).
    internal static class Facade
    {
        public static bool Destroyed(Object o) { return o.destroyed; }
        public static bool ColourSet(Material m) { return m.colourSet; }
        public static string Primitive(Mesh m) { return m.primitive; }
    }

    // The scene: every GameObject made, the scripts waiting for Start.
    internal static class Scene
    {
        internal static readonly List<GameObject> objects = new List<GameObject>();
        static readonly List<MonoBehaviour> pendingStart = new List<MonoBehaviour>();
        public static Assembly ScriptAssembly;
        public static string ScriptNamespace = "";
        public static readonly List<string> Errors = new List<string>();

        public static void Reset(Assembly scripts, string ns)
        {
            objects.Clear(); pendingStart.Clear(); Errors.Clear();
            ScriptAssembly = scripts; ScriptNamespace = ns;
            Random.InitState(0);
        }

        internal static void Register(GameObject go) { objects.Add(go); }
        public static IEnumerable<GameObject> Alive() { return objects.Where(o => !o.destroyed); }
        public static IList<GameObject> Objects { get { return objects; } }

        internal static T[] FindObjectsOfType<T>() where T : Object
        {
            var found = new List<T>();
            foreach (var go in Alive())
            {
                if (go is T) found.Add((T)(Object)go);
                found.AddRange(go.components.OfType<T>());
            }
            return found.ToArray();
        }

        internal static Type TypeNamed(string name)
        {
            var local = typeof(GameObject).Assembly.GetType("UnityEngine." + name);
            if (local != null) return local;
            if (ScriptAssembly != null)
                foreach (var t in ScriptAssembly.GetTypes())
                    if (t.Name == name && ((t.Namespace ?? "") == ScriptNamespace || (t.Namespace ?? "").StartsWith(ScriptNamespace + "."))) return t;
            throw new ArgumentException("no component type " + name);
        }

        // AddComponent of a script: Awake and OnEnable now, Start before the next frame.
        internal static void Awaken(MonoBehaviour behaviour)
        {
            Call(behaviour, "Awake");
            if (behaviour.gameObject.activeInHierarchy) Call(behaviour, "OnEnable");
            pendingStart.Add(behaviour);
        }

        public static void RunPendingStarts()
        {
            for (int guard = 0; pendingStart.Count > 0 && guard < 64; guard++)
            {
                var batch = pendingStart.ToList();
                pendingStart.Clear();
                foreach (var behaviour in batch)
                    if (!behaviour.destroyed && behaviour.gameObject.activeInHierarchy) Call(behaviour, "Start");
            }
        }

        public static void Call(object target, string method)
        {
            for (Type t = target.GetType(); t != null && t != typeof(MonoBehaviour); t = t.BaseType)
            {
                var info = t.GetMethod(method, BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly, null, Type.EmptyTypes, null);
                if (info == null) continue;
                Invoke(info, target);
                return;
            }
        }

        // Unity logs an exception in a script's method and goes on with the next.
        public static void Invoke(MethodInfo info, object target)
        {
            try
            {
                object result = info.Invoke(target, info.GetParameters().Length == 0 ? null : new object[info.GetParameters().Length]);
                var routine = result as IEnumerator;
                var behaviour = target as MonoBehaviour;
                if (routine != null && behaviour != null) behaviour.StartCoroutine(routine);
            }
            catch (TargetInvocationException e)
            {
                Errors.Add(info.DeclaringType.Name + "." + info.Name + ": " + e.InnerException.GetType().Name + ": " + e.InnerException.Message);
            }
        }

        internal static void Destroy(Object o)
        {
            if ((object)o == null) return;
            var go = o as GameObject;
            if (go != null)
            {
                go.destroyed = true;
                foreach (Transform child in go.transform) Destroy(child.gameObject);
                if (go.transform.parent != null) go.transform.parent.children.Remove(go.transform);
                return;
            }
            var component = o as Component;
            if (component != null && !(component is Transform))
            {
                component.destroyed = true;
                component.gameObject.components.Remove(component);
                return;
            }
            o.destroyed = true;
        }

        internal static Object Instantiate(Object original, Transform parent, bool worldPositionStays, Vector3? position, Quaternion? rotation)
        {
            var component = original as Component;
            var source = original as GameObject ?? (component != null ? component.gameObject : null);
            if (source == null)
            {
                var mesh = original as Mesh;
                if (mesh != null) return mesh.Copy();
                var material = original as Material;
                if (material != null) return new Material(material);
                return original;
            }
            GameObject clone = CloneTree(source, null);
            clone.name = source.name + "(Clone)";
            if (parent != null) clone.transform.SetParent(parent, worldPositionStays);
            if (position.HasValue) clone.transform.position = position.Value;
            if (rotation.HasValue) clone.transform.rotation = rotation.Value;
            if (component == null) return clone;
            int index = source.components.IndexOf(component);
            return clone.components[index];
        }

        static GameObject CloneTree(GameObject source, Transform parent)
        {
            var clone = new GameObject(source.name);
            clone.tag = source.tag;
            clone.SetActive(source.activeSelf);
            if (parent != null) clone.transform.SetParent(parent, false);
            clone.transform.lp = source.transform.lp;
            clone.transform.lr = source.transform.lr;
            clone.transform.ls = source.transform.ls;
            foreach (var c in source.components)
            {
                if (c is Transform) continue;
                var filter = c as MeshFilter;
                var renderer = c as Renderer;
                Component made = clone.AddComponent(c.GetType());
                if (filter != null) ((MeshFilter)made).sharedMesh = filter.sharedMesh;
                else if (renderer != null) { ((Renderer)made).shared = new List<Material>(renderer.shared); ((Renderer)made).enabled = renderer.enabled; }
            }
            foreach (Transform child in source.transform) CloneTree(child.gameObject, clone.transform);
            return clone;
        }
    }
}
