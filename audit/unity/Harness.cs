// The Unity harness's driver, an assembly of its own (UnityHarness.exe, compiled once against
// the facade): it loads the replies' assembly (each reply in a namespace of its own), and for
// each reply asked for checks what the reply's compiled code references (ReplyCheck), resets
// the scene, runs what Unity (or its editor) would run, and writes what the scene holds as
// JSON: each GameObject's name, whether it is active and rendered, its mesh (the built-in
// primitive it is, and its vertices), its localToWorldMatrix and its material's colour.
//
//     mono UnityHarness.exe replies.dll OUT case...    one file OUT/<case>.json per case
//     mono UnityHarness.exe replies.dll - case         the case's report on stdout (the audit)
//
// What runs is what the Unity parser takes for entry points (parsers/unity/parser.py): every
// class declaring Awake, OnEnable or Start is made (a MonoBehaviour on one "Script Host"
// GameObject, whose AddComponent calls its Awake and OnEnable), then every Start; then static
// methods marked [MenuItem], [InitializeOnLoadMethod], [RuntimeInitializeOnLoadMethod] or
// [DidReloadScripts]; failing all those, parameterless methods named like a scene builder
// (Build..., Create..., Main). An exception in one method is logged and the next runs, as
// Unity goes on after a script's exception.
//
// A reply whose code references what ReplyCheck refuses (files, processes, the network,
// native code, reflection) is not run at all: each refusal is written to stderr as a line the
// audit reads ("\0sandbox-blocked {json}"); on stdout nothing, exit code 3 (the audit), or in
// the case's file the refusals and no object.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using UnityEngine;

static class UnityHarness
{
    static readonly string[] Lifecycle = { "Awake", "OnEnable", "Start" };
    static readonly string[] EntryAttributes =
    {
        "MenuItem", "InitializeOnLoadMethodAttribute", "RuntimeInitializeOnLoadMethodAttribute", "DidReloadScripts",
    };
    static readonly Regex Builder = new Regex("^(Build|Create|Generate|Setup|SetUp|Spawn|Make|Construct|Init)", RegexOptions.IgnoreCase);
    const BindingFlags Declared = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;
    public const int Refused = 3;

    static int Main(string[] args)
    {
        Thread.CurrentThread.CurrentCulture = CultureInfo.InvariantCulture;
        Thread.CurrentThread.CurrentUICulture = CultureInfo.InvariantCulture;
        Assembly scripts = Assembly.LoadFrom(args[0]);
        bool toStdout = args[1] == "-";
        for (int i = 2; i < args.Length; i++)
        {
            string ns = "Reply_" + args[i];
            var refusals = ReplyCheck.Refusals(scripts, ns);
            if (refusals.Count > 0)
            {
                foreach (var r in refusals.Take(20))
                    Console.Error.WriteLine("\0sandbox-blocked {\"what\": " + Text(r.Key) + ", \"detail\": " + Text(r.Value) + ", \"stopped_by\": \"C# reference check (before running)\"}");
                if (toStdout) return Refused;
                File.WriteAllText(Path.Combine(args[1], args[i] + ".json"), RefusedReport(refusals));
                continue;
            }
            Scene.Reset(scripts, ns);
            try { Run(scripts, ns); }
            catch (Exception e) { Scene.Errors.Add("harness: " + e.GetType().Name + ": " + e.Message); }
            if (toStdout) Console.Out.Write(Report());
            else File.WriteAllText(Path.Combine(args[1], args[i] + ".json"), Report());
        }
        return 0;
    }

    static bool Declares(Type type, string method)
    {
        for (Type t = type; t != null && t != typeof(MonoBehaviour) && t != typeof(object); t = t.BaseType)
            if (t.GetMethods(Declared).Any(m => m.Name == method && !m.IsStatic && m.GetParameters().Length == 0)) return true;
        return false;
    }

    static void Run(Assembly scripts, string ns)
    {
        var top = scripts.GetTypes()
            .Where(t => ReplyCheck.InNamespace(t, ns) && t.IsClass && !t.IsNested)
            .OrderBy(t => t.MetadataToken)
            .ToList();
        bool ran = false;
        GameObject host = null;
        var plain = new List<object>();
        foreach (var type in top)
        {
            if (type.IsAbstract || !Lifecycle.Any(m => Declares(type, m))) continue;
            ran = true;
            if (typeof(MonoBehaviour).IsAssignableFrom(type))
            {
                if (host == null) host = new GameObject("Script Host");
                host.AddComponent(type);
            }
            else
            {
                object made = Activator.CreateInstance(type, true);
                plain.Add(made);
                Scene.Call(made, "Awake");
                Scene.Call(made, "OnEnable");
            }
        }
        foreach (var made in plain) Scene.Call(made, "Start");
        Scene.RunPendingStarts();
        foreach (var type in top)
            foreach (var method in type.GetMethods(Declared).Where(m => m.IsStatic).OrderBy(m => m.MetadataToken))
                if (method.GetCustomAttributes(true).Any(a => EntryAttributes.Contains(a.GetType().Name)))
                {
                    ran = true;
                    Scene.Invoke(method, null);
                    Scene.RunPendingStarts();
                }
        if (ran) return;
        foreach (var type in top)
            foreach (var method in type.GetMethods(Declared).OrderBy(m => m.MetadataToken))
            {
                if (method.GetParameters().Length != 0 || !(Builder.IsMatch(method.Name) || method.Name == "Main")) continue;
                object target = null;
                if (!method.IsStatic)
                {
                    if (type.IsAbstract) continue;
                    if (typeof(MonoBehaviour).IsAssignableFrom(type))
                    {
                        if (host == null) host = new GameObject("Script Host");
                        target = host.AddComponent(type);
                    }
                    else target = Activator.CreateInstance(type, true);
                }
                Scene.Invoke(method, target);
                Scene.RunPendingStarts();
            }
    }

    static string Number(float value) { return ((double)value).ToString("R", CultureInfo.InvariantCulture); }

    static string Text(string value)
    {
        var b = new StringBuilder("\"");
        foreach (char c in value ?? "")
        {
            if (c == '"' || c == '\\') b.Append('\\').Append(c);
            else if (c < ' ') b.Append("\\u").Append(((int)c).ToString("x4"));
            else b.Append(c);
        }
        return b.Append('"').ToString();
    }

    static string RefusedReport(List<KeyValuePair<string, string>> refusals)
    {
        return "{\"objects\": [], \"errors\": [], \"refused\": ["
            + string.Join(", ", refusals.Select(r => Text(r.Key + ": " + r.Value))) + "]}";
    }

    static string Report()
    {
        var b = new StringBuilder("{\"objects\": [");
        bool first = true;
        foreach (var go in Scene.Objects)
        {
            if (Facade.Destroyed(go)) continue;
            var filter = go.GetComponent<MeshFilter>();
            var renderer = go.GetComponent<Renderer>();
            Mesh mesh = filter != null ? filter.sharedMesh : null;
            if (!first) b.Append(", ");
            first = false;
            b.Append("{\"name\": ").Append(Text(go.name));
            b.Append(", \"active\": ").Append(go.activeInHierarchy ? "true" : "false");
            b.Append(", \"renderer\": ").Append(renderer != null ? "true" : "false");
            b.Append(", \"enabled\": ").Append(renderer != null && renderer.enabled ? "true" : "false");
            string primitive = mesh != null ? Facade.Primitive(mesh) : null;
            b.Append(", \"primitive\": ").Append(primitive != null ? Text(primitive) : "null");
            b.Append(", \"vertices\": ");
            if (mesh == null) b.Append("null");
            else b.Append("[").Append(string.Join(", ", mesh.vertices.Select(v => "[" + Number(v.x) + ", " + Number(v.y) + ", " + Number(v.z) + "]"))).Append("]");
            Matrix4x4 m = go.transform.localToWorldMatrix;
            var cells = new List<string>();
            for (int r = 0; r < 4; r++) for (int c = 0; c < 4; c++) cells.Add(Number(m[r, c]));
            b.Append(", \"matrix\": [").Append(string.Join(", ", cells)).Append("]");
            Material material = renderer != null ? renderer.sharedMaterial : null;
            if (material != null && Facade.ColourSet(material))
            {
                Color c = material.color;
                b.Append(", \"color\": [").Append(Number(c.r)).Append(", ").Append(Number(c.g)).Append(", ").Append(Number(c.b)).Append("]");
            }
            else b.Append(", \"color\": null");
            b.Append("}");
        }
        b.Append("], \"errors\": [").Append(string.Join(", ", Scene.Errors.Select(Text))).Append("]}");
        return b.ToString();
    }
}
