// What a reply's compiled code may reference, checked before any of it runs (docs/audit.md,
// "The sandbox"): the driver reads every method body of the reply's types (its namespace, the
// nested and compiler-made types in it), resolves each token the IL names (calls, fields,
// types, ldtoken, generic instantiations) and refuses the reply when one lies outside what a
// scene script needs. An allowlist, not a denylist: a reply may use
//
// - its own types, the facade's (UnityEngine, UnityEditor) and the types the compiler makes;
// - the BCL's collections, LINQ, text, globalization, numerics, threads and tasks, the compiler
//   services, in-memory streams and text readers and writers, Debug and Stopwatch;
// - the System namespace except Environment (NewLine and TickCount aside), AppDomain,
//   Activator (but new T()), the reflective members of Type and of delegates;
//
// and nothing else: no file (System.IO's file system), no process (System.Diagnostics.Process),
// no network (System.Net), no native code (a method declared extern, P/Invoke, InteropServices,
// function pointers), no reflection (System.Reflection, Type.GetType(string), Type.GetMethod,
// Delegate.CreateDelegate), no code made at run time (System.Linq.Expressions, dynamic,
// System.Reflection.Emit), no serialization, no XML or configuration readers (which open
// files). mcs compiles without -unsafe, so pointers never compile. A token the check cannot
// resolve is refused too.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Reflection.Emit;

static class ReplyCheck
{
    // Namespaces whose every type a reply may use.
    static readonly string[] AllowedNamespaces =
    {
        "System.Collections", "System.Collections.Generic", "System.Collections.ObjectModel",
        "System.Collections.Specialized", "System.Collections.Concurrent", "System.Linq",
        "System.Text", "System.Text.RegularExpressions", "System.Globalization", "System.Threading",
        "System.Threading.Tasks", "System.Numerics", "System.Runtime.CompilerServices",
    };
    // Facade namespaces, with those below them.
    static readonly string[] FacadeNamespaces = { "UnityEngine", "UnityEditor" };
    // Types of otherwise refused namespaces that a reply may use.
    static readonly HashSet<string> AllowedTypes = new HashSet<string>
    {
        "System.IO.MemoryStream", "System.IO.Stream", "System.IO.StringReader", "System.IO.StringWriter",
        "System.IO.TextReader", "System.IO.TextWriter", "System.IO.BinaryReader", "System.IO.BinaryWriter",
        "System.IO.SeekOrigin", "System.IO.IOException", "System.IO.EndOfStreamException",
        "System.Diagnostics.Debug", "System.Diagnostics.Stopwatch", "System.Diagnostics.ConditionalAttribute",
        "System.Diagnostics.DebuggerHiddenAttribute", "System.Diagnostics.DebuggerStepThroughAttribute",
        "System.Diagnostics.DebuggerBrowsableAttribute", "System.Diagnostics.DebuggerBrowsableState",
        "System.Diagnostics.DebuggerNonUserCodeAttribute", "System.Diagnostics.DebuggerDisplayAttribute",
        "System.Reflection.DefaultMemberAttribute",
    };
    // Types of the System namespace a reply may not use, with what using them would be.
    static readonly Dictionary<string, string> RefusedSystemTypes = new Dictionary<string, string>
    {
        { "System.AppDomain", "load or run other code (AppDomain)" },
        { "System.Activator", "make an object of a type named at run time (Activator)" },
        { "System.Environment", "reach the process's environment (Environment)" },
        { "System.Type", "reflect on a type (Type)" },
        { "System.Delegate", "make a delegate by reflection" },
        { "System.MulticastDelegate", "make a delegate by reflection" },
        { "System.TypedReference", "use untyped references" },
        { "System.ArgIterator", "use untyped references" },
        { "System.RuntimeMethodHandle", "reach a method by its handle" },
        { "System.RuntimeFieldHandle", "reach a field by its handle" },
    };
    // Members of those types that stay allowed.
    static readonly HashSet<string> AllowedSystemMembers = new HashSet<string>
    {
        "System.Environment.get_NewLine", "System.Environment.get_TickCount",
        "System.Activator.CreateInstance`0",
        "System.Type.GetTypeFromHandle", "System.Type.get_Name", "System.Type.get_FullName",
        "System.Type.get_Namespace", "System.Type.ToString", "System.Type.Equals", "System.Type.GetHashCode",
        "System.Type.op_Equality", "System.Type.op_Inequality", "System.Type.IsAssignableFrom",
        "System.Type.IsInstanceOfType", "System.Type.IsSubclassOf", "System.Type.get_IsValueType",
        "System.Type.get_IsEnum", "System.Type.get_IsClass", "System.Type.get_IsInterface",
        "System.Type.get_IsArray", "System.Type.get_IsPrimitive", "System.Type.get_IsAbstract",
        "System.Type.get_IsSealed", "System.Type.get_IsGenericType", "System.Type.get_BaseType",
        "System.Type.GetElementType", "System.Type.GetGenericArguments", "System.Type.GetEnumValues",
        "System.Type.GetEnumNames", "System.Type.GetEnumUnderlyingType",
        "System.Delegate.Invoke", "System.Delegate.DynamicInvoke", "System.Delegate.Combine",
        "System.Delegate.Remove", "System.Delegate.get_Target", "System.Delegate.Equals",
        "System.Delegate.GetHashCode", "System.Delegate.op_Equality", "System.Delegate.op_Inequality",
        "System.MulticastDelegate.Equals", "System.MulticastDelegate.GetHashCode",
    };
    // Refused namespaces, longest first, with what using them would be.
    static readonly KeyValuePair<string, string>[] RefusedNamespaces =
    {
        P("System.IO", "read or write a file (System.IO)"),
        P("System.Diagnostics", "start or reach a process (System.Diagnostics)"),
        P("System.Net", "open a network connection (System.Net)"),
        P("System.Runtime.InteropServices", "call native code (InteropServices)"),
        P("System.Reflection", "reflect on or load code (System.Reflection)"),
        P("System.Linq.Expressions", "build code at run time (System.Linq.Expressions)"),
        P("System.Dynamic", "bind members by name at run time (dynamic)"),
        P("Microsoft.CSharp", "bind members by name at run time (dynamic)"),
        P("System.Runtime.Serialization", "deserialize objects"),
        P("System.Runtime.Remoting", "reach other processes (remoting)"),
        P("System.Security", "change security settings"),
        P("System.Xml", "read XML (which opens files)"),
        P("System.Configuration", "read configuration files"),
        P("System.Resources", "read resource files"),
        P("System.ComponentModel", "reflect on types (ComponentModel)"),
        P("System.Web", "open a network connection (System.Web)"),
        P("System.Data", "reach a database"),
        P("Mono", "reach Mono's internals"),
    };

    static KeyValuePair<string, string> P(string key, string value) { return new KeyValuePair<string, string>(key, value); }

    static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null))
        .GroupBy(o => o.Value)
        .ToDictionary(g => g.Key, g => g.First());

    const BindingFlags Everything = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;

    public static bool InNamespace(Type t, string ns)
    {
        string name = t.Namespace ?? "";
        return name == ns || name.StartsWith(ns + ".");
    }

    sealed class Checker
    {
        readonly Assembly scripts;
        readonly string ns;
        public readonly List<KeyValuePair<string, string>> Found = new List<KeyValuePair<string, string>>();
        readonly HashSet<string> seen = new HashSet<string>();

        public Checker(Assembly scripts, string ns) { this.scripts = scripts; this.ns = ns; }

        void Refuse(string what, string detail)
        {
            if (seen.Add(what + "\0" + detail)) Found.Add(new KeyValuePair<string, string>(what, detail));
        }

        static string Name(Type t) { return t.FullName ?? t.Name; }

        public void CheckType(Type t)
        {
            if (t == null || t.IsGenericParameter) return;
            if (t.HasElementType) { CheckType(t.GetElementType()); return; }
            if (t.IsGenericType && !t.IsGenericTypeDefinition)
            {
                foreach (var argument in t.GetGenericArguments()) CheckType(argument);
                t = t.GetGenericTypeDefinition();
            }
            Type outer = t;
            while (outer.IsNested) outer = outer.DeclaringType;
            if (t.Assembly == scripts)
            {
                // The reply's own types, and those the compiler makes outside any namespace.
                if (InNamespace(outer, ns) || (outer.Namespace == null && outer.Name.StartsWith("<"))) return;
                Refuse("reach code outside the reply", Name(t));
                return;
            }
            string space = outer.Namespace ?? "";
            string full = Name(outer);
            if (FacadeNamespaces.Any(f => space == f || space.StartsWith(f + "."))) return;
            if (full == "System.Runtime.CompilerServices.Unsafe")
            {
                Refuse("read or write memory unchecked (Unsafe)", full);
                return;
            }
            if (AllowedNamespaces.Contains(space) || AllowedTypes.Contains(full)) return;
            if (space == "System") return;  // RefusedSystemTypes are judged member by member.
            foreach (var refused in RefusedNamespaces)
                if (space == refused.Key || space.StartsWith(refused.Key + "."))
                {
                    Refuse(refused.Value, full);
                    return;
                }
            Refuse("use a library a scene script does not need", full);
        }

        public void CheckMember(MemberInfo member)
        {
            Type declaring = member.DeclaringType;
            if (declaring == null)
            {
                Refuse("call a module-level function", member.Name);
                return;
            }
            CheckType(declaring);
            var method = member as MethodInfo;
            if (method != null && method.IsGenericMethod)
                foreach (var argument in method.GetGenericArguments()) CheckType(argument);
            Type outer = declaring.IsGenericType ? declaring.GetGenericTypeDefinition() : declaring;
            string what;
            if (outer.Namespace == "System" && RefusedSystemTypes.TryGetValue(outer.FullName, out what))
            {
                string key = outer.FullName + "." + member.Name;
                if (method != null && method.IsGenericMethod && method.GetParameters().Length == 0) key += "`0";
                if (!AllowedSystemMembers.Contains(key)) Refuse(what, key);
            }
            var field = member as FieldInfo;
            if (field != null) CheckType(field.FieldType);
        }

        public void CheckMethod(MethodBase method, Module module)
        {
            if ((method.Attributes & MethodAttributes.PinvokeImpl) != 0)
                Refuse("call native code (P/Invoke, DllImport)", method.DeclaringType.FullName + "." + method.Name);
            if ((method.GetMethodImplementationFlags() & MethodImplAttributes.InternalCall) != 0)
                Refuse("call the runtime's internals (an extern method)", method.DeclaringType.FullName + "." + method.Name);
            MethodBody body = method.GetMethodBody();
            if (body == null) return;
            foreach (var local in body.LocalVariables) CheckType(local.LocalType);
            Type[] typeArguments = method.DeclaringType.IsGenericType ? method.DeclaringType.GetGenericArguments() : null;
            Type[] methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
            byte[] il = body.GetILAsByteArray();
            int at = 0;
            while (at < il.Length)
            {
                short value = il[at++];
                if (value == 0xFE && at < il.Length) value = unchecked((short)(0xFE00 | il[at++]));
                OpCode code;
                if (!OpCodesByValue.TryGetValue(value, out code))
                {
                    Refuse("use IL the check cannot read", method.Name + " at " + at);
                    return;
                }
                switch (code.OperandType)
                {
                    case OperandType.InlineNone: break;
                    case OperandType.ShortInlineBrTarget:
                    case OperandType.ShortInlineI:
                    case OperandType.ShortInlineVar: at += 1; break;
                    case OperandType.InlineVar: at += 2; break;
                    case OperandType.InlineI8:
                    case OperandType.InlineR: at += 8; break;
                    case OperandType.InlineSwitch: at += 4 + 4 * BitConverter.ToInt32(il, at); break;
                    case OperandType.InlineSig:
                        Refuse("call through a function pointer (calli)", method.Name);
                        at += 4;
                        break;
                    case OperandType.InlineField:
                    case OperandType.InlineMethod:
                    case OperandType.InlineType:
                    case OperandType.InlineTok:
                        int token = BitConverter.ToInt32(il, at);
                        at += 4;
                        try
                        {
                            MemberInfo resolved = module.ResolveMember(token, typeArguments, methodArguments);
                            var type = resolved as Type;
                            if (type != null) CheckType(type);
                            else CheckMember(resolved);
                        }
                        catch (Exception e)
                        {
                            Refuse("reference what the check cannot resolve", e.GetType().Name + ": " + e.Message);
                        }
                        break;
                    default: at += 4; break;
                }
            }
        }
    }

    // Each refusal: what the reply's code would do, and the type or member it names.
    public static List<KeyValuePair<string, string>> Refusals(Assembly scripts, string ns)
    {
        var checker = new Checker(scripts, ns);
        Type[] types;
        try { types = scripts.GetTypes(); }
        catch (ReflectionTypeLoadException e) { types = e.Types.Where(t => t != null).ToArray(); }
        foreach (var type in types.Where(t => InNamespace(t, ns)))
        {
            checker.CheckType(type.BaseType);
            foreach (var face in type.GetInterfaces()) checker.CheckType(face);
            foreach (var field in type.GetFields(Everything)) checker.CheckType(field.FieldType);
            foreach (var method in type.GetMethods(Everything)) checker.CheckMethod(method, type.Module);
            foreach (var constructor in type.GetConstructors(Everything)) checker.CheckMethod(constructor, type.Module);
            if (type.TypeInitializer != null) checker.CheckMethod(type.TypeInitializer, type.Module);
        }
        return checker.Found;
    }
}
