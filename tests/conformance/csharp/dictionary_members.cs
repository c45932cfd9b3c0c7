using System;
using System.Collections.Generic;

class Program
{
    static void Main()
    {
        var sizes = new Dictionary<string, float>();
        sizes["cube"] = 1;
        sizes.Add("ball", 0.5f);
        sizes["cube"] = 2;
        Console.WriteLine(sizes["cube"] + " " + sizes.Count);
        Console.WriteLine(sizes.ContainsKey("ball") + " " + sizes.ContainsKey("cone"));
        float v;
        if (sizes.TryGetValue("ball", out v)) Console.WriteLine("ball " + v);
        if (!sizes.TryGetValue("cone", out v)) Console.WriteLine("no cone " + v);
        foreach (KeyValuePair<string, float> kv in sizes) Console.WriteLine(kv.Key + "=" + kv.Value);
        foreach (var key in sizes.Keys) Console.Write(key + ";");
        Console.WriteLine();
        sizes.Remove("cube");
        Console.WriteLine(sizes.Count);
        var colors = new Dictionary<string, string> { { "red", "#f00" }, { "blue", "#00f" } };
        Console.WriteLine(colors["blue"]);
        var codes = new Dictionary<int, string> { [3] = "three", [1] = "one" };
        foreach (var kv in codes) Console.Write(kv.Key);
        Console.WriteLine();
        try
        {
            Console.WriteLine(sizes["missing"]);
        }
        catch (KeyNotFoundException)
        {
            Console.WriteLine("missing key");
        }
    }
}
