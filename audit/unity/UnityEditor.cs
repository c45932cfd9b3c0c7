// UnityEditor as editor scripts use it to build a scene: [MenuItem] and the load attributes
// the harness calls, and Undo, EditorUtility, Selection, AssetDatabase doing nothing to the
// scene.
using System;
using UnityEngine;

namespace UnityEditor
{
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public class MenuItem : Attribute
    {
        public MenuItem(string path) { }
        public MenuItem(string path, bool validate) { }
        public MenuItem(string path, bool validate, int priority) { }
    }
    [AttributeUsage(AttributeTargets.Class)] public class InitializeOnLoadAttribute : Attribute { }
    [AttributeUsage(AttributeTargets.Method)] public class InitializeOnLoadMethodAttribute : Attribute { }
    [AttributeUsage(AttributeTargets.Class)] public class CustomEditor : Attribute { public CustomEditor(Type t) { } }

    public static class Undo
    {
        public static void RegisterCreatedObjectUndo(UnityEngine.Object o, string name) { }
        public static void RecordObject(UnityEngine.Object o, string name) { }
        public static void RegisterCompleteObjectUndo(UnityEngine.Object o, string name) { }
        public static void DestroyObjectImmediate(UnityEngine.Object o) { UnityEngine.Object.DestroyImmediate(o); }
        public static void SetTransformParent(Transform t, Transform p, string name) { t.SetParent(p, true); }
    }
    public static class EditorUtility
    {
        public static void SetDirty(UnityEngine.Object o) { }
        public static bool DisplayDialog(string title, string message, string ok) { return true; }
        public static bool DisplayDialog(string title, string message, string ok, string cancel) { return true; }
    }
    public static class Selection
    {
        public static GameObject activeGameObject;
        public static Transform activeTransform;
        public static UnityEngine.Object activeObject;
        public static UnityEngine.Object[] objects = new UnityEngine.Object[0];
    }
    public static class AssetDatabase
    {
        public static void CreateAsset(UnityEngine.Object o, string path) { }
        public static void SaveAssets() { }
        public static void Refresh() { }
        public static T LoadAssetAtPath<T>(string path) where T : UnityEngine.Object { return null; }
    }
    public static class EditorApplication { public static bool isPlaying; }
    public static class PrefabUtility
    {
        public static UnityEngine.Object InstantiatePrefab(UnityEngine.Object o) { return UnityEngine.Object.Instantiate(o); }
    }
    public class Editor : ScriptableObject { public UnityEngine.Object target; public virtual void OnInspectorGUI() { } }
    public class EditorWindow : ScriptableObject
    {
        public static T GetWindow<T>() where T : EditorWindow, new() { return new T(); }
        public void Show() { }
    }
    public static class SceneView { public static void RepaintAll() { } }
}

namespace UnityEditor.Callbacks
{
    [AttributeUsage(AttributeTargets.Method)] public class DidReloadScripts : Attribute { }
}

namespace UnityEditor.SceneManagement
{
    public static class EditorSceneManager
    {
        public static void MarkSceneDirty(object scene) { }
        public static object GetActiveScene() { return null; }
    }
}
