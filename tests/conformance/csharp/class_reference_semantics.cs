using System;
using System.Collections.Generic;

class Node
{
    public string Name;
    public List<Node> Children = new List<Node>();
    public Node Parent;
}

class Program
{
    static void Rename(Node n) { n.Name = "renamed"; }
    static void Replace(Node n) { n = new Node(); n.Name = "new"; }

    static void Main()
    {
        var root = new Node { Name = "root" };
        var alias = root;
        alias.Name = "changed";
        Console.WriteLine(root.Name);
        Rename(root);
        Console.WriteLine(root.Name);
        Replace(root);
        Console.WriteLine(root.Name);
        var child = new Node { Name = "child", Parent = root };
        root.Children.Add(child);
        child.Parent.Name = "via child";
        Console.WriteLine(root.Name + " " + root.Children.Count);
        Console.WriteLine(alias == root);
        Console.WriteLine(new Node() == new Node());
    }
}
