// The value types of the UnityEngine facade the Unity harness compiles replies against
// (tests/engines/unity_engine.py): Vector2/3/4, Quaternion, Color, Color32, Matrix4x4,
// Bounds, Mathf. Written from Unity's scripting reference (its documented formulas and
// conventions): structs of floats, left-handed axes, Quaternion.Euler turning about Z, then X,
// then Y, eulerAngles read back in [0, 360).
using System;
using System.Globalization;

namespace UnityEngine
{
    public struct Vector2
    {
        public float x, y;
        public Vector2(float x, float y) { this.x = x; this.y = y; }
        public static Vector2 zero { get { return new Vector2(0, 0); } }
        public static Vector2 one { get { return new Vector2(1, 1); } }
        public static Vector2 up { get { return new Vector2(0, 1); } }
        public static Vector2 down { get { return new Vector2(0, -1); } }
        public static Vector2 left { get { return new Vector2(-1, 0); } }
        public static Vector2 right { get { return new Vector2(1, 0); } }
        public float magnitude { get { return Mathf.Sqrt(x * x + y * y); } }
        public float sqrMagnitude { get { return x * x + y * y; } }
        public Vector2 normalized { get { float m = magnitude; return m > 1e-5f ? this / m : zero; } }
        public float this[int i] { get { return i == 0 ? x : y; } set { if (i == 0) x = value; else y = value; } }
        public static Vector2 operator +(Vector2 a, Vector2 b) { return new Vector2(a.x + b.x, a.y + b.y); }
        public static Vector2 operator -(Vector2 a, Vector2 b) { return new Vector2(a.x - b.x, a.y - b.y); }
        public static Vector2 operator -(Vector2 a) { return new Vector2(-a.x, -a.y); }
        public static Vector2 operator *(Vector2 a, float d) { return new Vector2(a.x * d, a.y * d); }
        public static Vector2 operator *(float d, Vector2 a) { return new Vector2(a.x * d, a.y * d); }
        public static Vector2 operator /(Vector2 a, float d) { return new Vector2(a.x / d, a.y / d); }
        public static implicit operator Vector3(Vector2 v) { return new Vector3(v.x, v.y, 0); }
        public static implicit operator Vector2(Vector3 v) { return new Vector2(v.x, v.y); }
        public override string ToString() { return "(" + x.ToString("F2", CultureInfo.InvariantCulture) + ", " + y.ToString("F2", CultureInfo.InvariantCulture) + ")"; }
    }

    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public Vector3(float x, float y) { this.x = x; this.y = y; z = 0; }
        public static Vector3 zero { get { return new Vector3(0, 0, 0); } }
        public static Vector3 one { get { return new Vector3(1, 1, 1); } }
        public static Vector3 up { get { return new Vector3(0, 1, 0); } }
        public static Vector3 down { get { return new Vector3(0, -1, 0); } }
        public static Vector3 left { get { return new Vector3(-1, 0, 0); } }
        public static Vector3 right { get { return new Vector3(1, 0, 0); } }
        public static Vector3 forward { get { return new Vector3(0, 0, 1); } }
        public static Vector3 back { get { return new Vector3(0, 0, -1); } }
        public float this[int i]
        {
            get { return i == 0 ? x : i == 1 ? y : z; }
            set { if (i == 0) x = value; else if (i == 1) y = value; else z = value; }
        }
        public float magnitude { get { return Mathf.Sqrt(x * x + y * y + z * z); } }
        public float sqrMagnitude { get { return x * x + y * y + z * z; } }
        public Vector3 normalized { get { return Normalize(this); } }
        public void Normalize() { this = Normalize(this); }
        public void Set(float newX, float newY, float newZ) { x = newX; y = newY; z = newZ; }
        public void Scale(Vector3 scale) { x *= scale.x; y *= scale.y; z *= scale.z; }
        public static Vector3 Normalize(Vector3 v)
        {
            float m = v.magnitude;
            return m > 1e-5f ? v / m : zero;
        }
        public static Vector3 Scale(Vector3 a, Vector3 b) { return new Vector3(a.x * b.x, a.y * b.y, a.z * b.z); }
        public static Vector3 Cross(Vector3 a, Vector3 b)
        {
            return new Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
        }
        public static float Dot(Vector3 a, Vector3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
        public static float Distance(Vector3 a, Vector3 b) { return (a - b).magnitude; }
        public static float Magnitude(Vector3 v) { return v.magnitude; }
        public static Vector3 Lerp(Vector3 a, Vector3 b, float t) { t = Mathf.Clamp01(t); return LerpUnclamped(a, b, t); }
        public static Vector3 LerpUnclamped(Vector3 a, Vector3 b, float t)
        {
            return new Vector3(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
        }
        public static Vector3 Max(Vector3 a, Vector3 b) { return new Vector3(Mathf.Max(a.x, b.x), Mathf.Max(a.y, b.y), Mathf.Max(a.z, b.z)); }
        public static Vector3 Min(Vector3 a, Vector3 b) { return new Vector3(Mathf.Min(a.x, b.x), Mathf.Min(a.y, b.y), Mathf.Min(a.z, b.z)); }
        public static float Angle(Vector3 from, Vector3 to)
        {
            float d = Mathf.Sqrt(from.sqrMagnitude * to.sqrMagnitude);
            if (d < 1e-15f) return 0f;
            return Mathf.Acos(Mathf.Clamp(Dot(from, to) / d, -1f, 1f)) * Mathf.Rad2Deg;
        }
        public static Vector3 Project(Vector3 v, Vector3 onNormal)
        {
            float s = Dot(onNormal, onNormal);
            return s < Mathf.Epsilon ? zero : onNormal * (Dot(v, onNormal) / s);
        }
        public static Vector3 ClampMagnitude(Vector3 v, float maxLength)
        {
            return v.sqrMagnitude > maxLength * maxLength ? v.normalized * maxLength : v;
        }
        public static Vector3 MoveTowards(Vector3 current, Vector3 target, float maxDistanceDelta)
        {
            Vector3 d = target - current;
            float m = d.magnitude;
            if (m <= maxDistanceDelta || m == 0f) return target;
            return current + d / m * maxDistanceDelta;
        }
        public static Vector3 operator +(Vector3 a, Vector3 b) { return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static Vector3 operator -(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static Vector3 operator -(Vector3 a) { return new Vector3(-a.x, -a.y, -a.z); }
        public static Vector3 operator *(Vector3 a, float d) { return new Vector3(a.x * d, a.y * d, a.z * d); }
        public static Vector3 operator *(float d, Vector3 a) { return new Vector3(a.x * d, a.y * d, a.z * d); }
        public static Vector3 operator /(Vector3 a, float d) { return new Vector3(a.x / d, a.y / d, a.z / d); }
        public static bool operator ==(Vector3 a, Vector3 b) { return (a - b).sqrMagnitude < 9.99999944E-11f; }
        public static bool operator !=(Vector3 a, Vector3 b) { return !(a == b); }
        public override bool Equals(object other) { return other is Vector3 && this == (Vector3)other; }
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2); }
        public override string ToString()
        {
            return "(" + x.ToString("F2", CultureInfo.InvariantCulture) + ", " + y.ToString("F2", CultureInfo.InvariantCulture) + ", " + z.ToString("F2", CultureInfo.InvariantCulture) + ")";
        }
    }

    public struct Vector4
    {
        public float x, y, z, w;
        public Vector4(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public static implicit operator Vector4(Vector3 v) { return new Vector4(v.x, v.y, v.z, 0); }
        public static implicit operator Vector3(Vector4 v) { return new Vector3(v.x, v.y, v.z); }
    }

    public struct Vector3Int
    {
        public int x, y, z;
        public Vector3Int(int x, int y, int z) { this.x = x; this.y = y; this.z = z; }
        public static implicit operator Vector3(Vector3Int v) { return new Vector3(v.x, v.y, v.z); }
    }

    public struct Vector2Int
    {
        public int x, y;
        public Vector2Int(int x, int y) { this.x = x; this.y = y; }
        public static implicit operator Vector2(Vector2Int v) { return new Vector2(v.x, v.y); }
    }

    public struct Quaternion
    {
        public float x, y, z, w;
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public static Quaternion identity { get { return new Quaternion(0, 0, 0, 1); } }

        public static Quaternion operator *(Quaternion a, Quaternion b)
        {
            return new Quaternion(
                a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z,
                a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x,
                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }

        public static Vector3 operator *(Quaternion q, Vector3 v)
        {
            // v' = q v q*, expanded (Unity's own formula).
            float x2 = q.x * 2f, y2 = q.y * 2f, z2 = q.z * 2f;
            float xx = q.x * x2, yy = q.y * y2, zz = q.z * z2;
            float xy = q.x * y2, xz = q.x * z2, yz = q.y * z2;
            float wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
            return new Vector3(
                (1f - (yy + zz)) * v.x + (xy - wz) * v.y + (xz + wy) * v.z,
                (xy + wz) * v.x + (1f - (xx + zz)) * v.y + (yz - wx) * v.z,
                (xz - wy) * v.x + (yz + wx) * v.y + (1f - (xx + yy)) * v.z);
        }

        public static bool operator ==(Quaternion a, Quaternion b) { return Dot(a, b) > 0.999999f; }
        public static bool operator !=(Quaternion a, Quaternion b) { return !(a == b); }
        public override bool Equals(object other) { return other is Quaternion && this == (Quaternion)other; }
        public override int GetHashCode() { return x.GetHashCode() ^ y.GetHashCode() ^ z.GetHashCode() ^ w.GetHashCode(); }
        public static float Dot(Quaternion a, Quaternion b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

        public static Quaternion AngleAxis(float angle, Vector3 axis)
        {
            if (axis.sqrMagnitude < 1e-12f) return identity;
            Vector3 n = axis.normalized;
            double half = angle * Math.PI / 360.0;
            float s = (float)Math.Sin(half);
            return new Quaternion(n.x * s, n.y * s, n.z * s, (float)Math.Cos(half));
        }

        // Z first, then X, then Y: the rotation is qy * qx * qz.
        public static Quaternion Euler(float x, float y, float z)
        {
            return AngleAxis(y, Vector3.up) * AngleAxis(x, Vector3.right) * AngleAxis(z, Vector3.forward);
        }
        public static Quaternion Euler(Vector3 e) { return Euler(e.x, e.y, e.z); }

        public static Quaternion Inverse(Quaternion q)
        {
            float n = Dot(q, q);
            return n < 1e-20f ? identity : new Quaternion(-q.x / n, -q.y / n, -q.z / n, q.w / n);
        }

        public Quaternion normalized { get { return Normalize(this); } }
        public static Quaternion Normalize(Quaternion q)
        {
            float m = Mathf.Sqrt(Dot(q, q));
            return m < Mathf.Epsilon ? identity : new Quaternion(q.x / m, q.y / m, q.z / m, q.w / m);
        }

        public static Quaternion LookRotation(Vector3 forward) { return LookRotation(forward, Vector3.up); }
        public static Quaternion LookRotation(Vector3 forward, Vector3 up)
        {
            if (forward.sqrMagnitude < 1e-12f) return identity;
            Vector3 z = forward.normalized;
            Vector3 x = Vector3.Cross(up, z);
            if (x.sqrMagnitude < 1e-12f)
                x = Vector3.Cross(Mathf.Abs(z.x) < 0.9f ? Vector3.right : Vector3.forward, z);
            x = x.normalized;
            Vector3 y = Vector3.Cross(z, x);
            return FromAxes(x, y, z);
        }

        public static Quaternion FromToRotation(Vector3 from, Vector3 to)
        {
            Vector3 axis = Vector3.Cross(from, to);
            float angle = Vector3.Angle(from, to);
            if (axis.sqrMagnitude < 1e-12f)
            {
                if (Vector3.Dot(from, to) >= 0) return identity;
                axis = Vector3.Cross(Mathf.Abs(from.x) < 0.9f ? Vector3.right : Vector3.up, from);
            }
            return AngleAxis(angle, axis);
        }

        public static Quaternion Slerp(Quaternion a, Quaternion b, float t)
        {
            t = Mathf.Clamp01(t);
            float dot = Dot(a, b);
            if (dot < 0) { b = new Quaternion(-b.x, -b.y, -b.z, -b.w); dot = -dot; }
            if (dot > 0.9995f) return Lerp(a, b, t);
            double theta = Math.Acos(dot);
            float wa = (float)(Math.Sin((1 - t) * theta) / Math.Sin(theta));
            float wb = (float)(Math.Sin(t * theta) / Math.Sin(theta));
            return new Quaternion(a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb);
        }

        public static Quaternion Lerp(Quaternion a, Quaternion b, float t)
        {
            t = Mathf.Clamp01(t);
            if (Dot(a, b) < 0) b = new Quaternion(-b.x, -b.y, -b.z, -b.w);
            return Normalize(new Quaternion(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t));
        }

        public static float Angle(Quaternion a, Quaternion b)
        {
            float dot = Mathf.Min(Mathf.Abs(Dot(a, b)), 1f);
            return dot > 0.999999f ? 0f : Mathf.Acos(dot) * 2f * Mathf.Rad2Deg;
        }

        // A rotation matrix (columns x, y, z) as a quaternion.
        internal static Quaternion FromAxes(Vector3 x, Vector3 y, Vector3 z)
        {
            float m00 = x.x, m10 = x.y, m20 = x.z, m01 = y.x, m11 = y.y, m21 = y.z, m02 = z.x, m12 = z.y, m22 = z.z;
            float trace = m00 + m11 + m22;
            if (trace > 0)
            {
                float s = Mathf.Sqrt(trace + 1f) * 2f;
                return new Quaternion((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25f * s);
            }
            if (m00 > m11 && m00 > m22)
            {
                float s = Mathf.Sqrt(1f + m00 - m11 - m22) * 2f;
                return new Quaternion(0.25f * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s);
            }
            if (m11 > m22)
            {
                float s = Mathf.Sqrt(1f + m11 - m00 - m22) * 2f;
                return new Quaternion((m01 + m10) / s, 0.25f * s, (m12 + m21) / s, (m02 - m20) / s);
            }
            float t2 = Mathf.Sqrt(1f + m22 - m00 - m11) * 2f;
            return new Quaternion((m02 + m20) / t2, (m12 + m21) / t2, 0.25f * t2, (m10 - m01) / t2);
        }

        // Unity's Euler angles (Z, X, Y order) in degrees, each in [0, 360).
        public Vector3 eulerAngles
        {
            get
            {
                Vector3 c0 = this * Vector3.right, c1 = this * Vector3.up, c2 = this * Vector3.forward;
                // R = Ry Rx Rz: m12 = -sin x, m02 = sin y cos x, m22 = cos y cos x,
                // m10 = cos x sin z, m11 = cos x cos z.
                double sx = -c2.y;
                double ax, ay, az;
                if (Math.Abs(sx) < 0.9999999)
                {
                    ax = Math.Asin(sx);
                    ay = Math.Atan2(c2.x, c2.z);
                    az = Math.Atan2(c0.y, c1.y);
                }
                else
                {
                    ax = Math.PI / 2 * Math.Sign(sx);
                    ay = Math.Atan2(-c0.z, c0.x);
                    az = 0;
                }
                return new Vector3(Wrap(ax), Wrap(ay), Wrap(az));
            }
            set { this = Euler(value); }
        }

        static float Wrap(double radians)
        {
            double degrees = radians * 180.0 / Math.PI;
            degrees %= 360.0;
            if (degrees < 0) degrees += 360.0;
            return (float)degrees;
        }

        public void SetLookRotation(Vector3 view) { this = LookRotation(view); }
        public void ToAngleAxis(out float angle, out Vector3 axis)
        {
            Quaternion q = Normalize(this);
            angle = 2f * Mathf.Acos(Mathf.Clamp(q.w, -1f, 1f)) * Mathf.Rad2Deg;
            float s = Mathf.Sqrt(1f - q.w * q.w);
            axis = s < 1e-6f ? Vector3.right : new Vector3(q.x / s, q.y / s, q.z / s);
        }
        public override string ToString()
        {
            return "(" + x.ToString("F5", CultureInfo.InvariantCulture) + ", " + y.ToString("F5", CultureInfo.InvariantCulture) + ", " + z.ToString("F5", CultureInfo.InvariantCulture) + ", " + w.ToString("F5", CultureInfo.InvariantCulture) + ")";
        }
    }

    public struct Color
    {
        public float r, g, b, a;
        public Color(float r, float g, float b, float a) { this.r = r; this.g = g; this.b = b; this.a = a; }
        public Color(float r, float g, float b) { this.r = r; this.g = g; this.b = b; a = 1f; }
        public static Color red { get { return new Color(1f, 0f, 0f, 1f); } }
        public static Color green { get { return new Color(0f, 1f, 0f, 1f); } }
        public static Color blue { get { return new Color(0f, 0f, 1f, 1f); } }
        public static Color white { get { return new Color(1f, 1f, 1f, 1f); } }
        public static Color black { get { return new Color(0f, 0f, 0f, 1f); } }
        public static Color yellow { get { return new Color(1f, 0.921568632f, 0.0156862754f, 1f); } }
        public static Color cyan { get { return new Color(0f, 1f, 1f, 1f); } }
        public static Color magenta { get { return new Color(1f, 0f, 1f, 1f); } }
        public static Color gray { get { return new Color(0.5f, 0.5f, 0.5f, 1f); } }
        public static Color grey { get { return new Color(0.5f, 0.5f, 0.5f, 1f); } }
        public static Color clear { get { return new Color(0f, 0f, 0f, 0f); } }
        public float this[int i]
        {
            get { return i == 0 ? r : i == 1 ? g : i == 2 ? b : a; }
            set { if (i == 0) r = value; else if (i == 1) g = value; else if (i == 2) b = value; else a = value; }
        }
        public static Color operator +(Color x, Color y) { return new Color(x.r + y.r, x.g + y.g, x.b + y.b, x.a + y.a); }
        public static Color operator -(Color x, Color y) { return new Color(x.r - y.r, x.g - y.g, x.b - y.b, x.a - y.a); }
        public static Color operator *(Color x, Color y) { return new Color(x.r * y.r, x.g * y.g, x.b * y.b, x.a * y.a); }
        public static Color operator *(Color x, float d) { return new Color(x.r * d, x.g * d, x.b * d, x.a * d); }
        public static Color operator *(float d, Color x) { return new Color(x.r * d, x.g * d, x.b * d, x.a * d); }
        public static Color operator /(Color x, float d) { return new Color(x.r / d, x.g / d, x.b / d, x.a / d); }
        public static bool operator ==(Color x, Color y) { return x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a; }
        public static bool operator !=(Color x, Color y) { return !(x == y); }
        public override bool Equals(object other) { return other is Color && this == (Color)other; }
        public override int GetHashCode() { return r.GetHashCode() ^ g.GetHashCode() ^ b.GetHashCode() ^ a.GetHashCode(); }
        public static Color Lerp(Color x, Color y, float t)
        {
            t = Mathf.Clamp01(t);
            return new Color(x.r + (y.r - x.r) * t, x.g + (y.g - x.g) * t, x.b + (y.b - x.b) * t, x.a + (y.a - x.a) * t);
        }
        public static Color HSVToRGB(float h, float s, float v)
        {
            h = Mathf.Repeat(h, 1f) * 6f;
            int i = (int)Math.Floor(h);
            float f = h - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
            switch (i % 6)
            {
                case 0: return new Color(v, t, p);
                case 1: return new Color(q, v, p);
                case 2: return new Color(p, v, t);
                case 3: return new Color(p, q, v);
                case 4: return new Color(t, p, v);
                default: return new Color(v, p, q);
            }
        }
        public static implicit operator Color(Color32 c) { return new Color(c.r / 255f, c.g / 255f, c.b / 255f, c.a / 255f); }
        public static implicit operator Color32(Color c)
        {
            return new Color32((byte)Mathf.Round(Mathf.Clamp01(c.r) * 255f), (byte)Mathf.Round(Mathf.Clamp01(c.g) * 255f),
                (byte)Mathf.Round(Mathf.Clamp01(c.b) * 255f), (byte)Mathf.Round(Mathf.Clamp01(c.a) * 255f));
        }
        public override string ToString()
        {
            return "RGBA(" + r.ToString("F3", CultureInfo.InvariantCulture) + ", " + g.ToString("F3", CultureInfo.InvariantCulture) + ", " + b.ToString("F3", CultureInfo.InvariantCulture) + ", " + a.ToString("F3", CultureInfo.InvariantCulture) + ")";
        }
    }

    public struct Color32
    {
        public byte r, g, b, a;
        public Color32(byte r, byte g, byte b, byte a) { this.r = r; this.g = g; this.b = b; this.a = a; }
    }

    public static class ColorUtility
    {
        public static bool TryParseHtmlString(string html, out Color color)
        {
            color = new Color(0, 0, 0, 0);
            if (html == null) return false;
            string text = html.Trim();
            if (!text.StartsWith("#"))
            {
                switch (text.ToLowerInvariant())
                {
                    case "red": color = Color.red; return true;
                    case "green": color = new Color(0f, 128f / 255f, 0f); return true;
                    case "blue": color = Color.blue; return true;
                    case "white": color = Color.white; return true;
                    case "black": color = Color.black; return true;
                    case "yellow": color = new Color(1f, 1f, 0f); return true;
                    case "cyan": case "aqua": color = Color.cyan; return true;
                    case "magenta": case "fuchsia": color = Color.magenta; return true;
                    case "grey": case "gray": color = new Color(128f / 255f, 128f / 255f, 128f / 255f); return true;
                    case "orange": color = new Color(1f, 165f / 255f, 0f); return true;
                    case "purple": color = new Color(128f / 255f, 0f, 128f / 255f); return true;
                    default: return false;
                }
            }
            string hex = text.Substring(1);
            if (hex.Length == 3 || hex.Length == 4)
            {
                string wide = "";
                foreach (char c in hex) wide += new string(c, 2);
                hex = wide;
            }
            if (hex.Length != 6 && hex.Length != 8) return false;
            uint value;
            if (!uint.TryParse(hex, NumberStyles.HexNumber, CultureInfo.InvariantCulture, out value)) return false;
            if (hex.Length == 6) value = (value << 8) | 0xFF;
            color = new Color32((byte)(value >> 24), (byte)(value >> 16), (byte)(value >> 8), (byte)value);
            return true;
        }
        public static string ToHtmlStringRGB(Color c)
        {
            Color32 b = c;
            return b.r.ToString("X2") + b.g.ToString("X2") + b.b.ToString("X2");
        }
    }

    public struct Matrix4x4
    {
        public float m00, m01, m02, m03, m10, m11, m12, m13, m20, m21, m22, m23, m30, m31, m32, m33;
        public static Matrix4x4 identity { get { var m = new Matrix4x4(); m.m00 = m.m11 = m.m22 = m.m33 = 1f; return m; } }
        public float this[int row, int column]
        {
            get
            {
                switch (row * 4 + column)
                {
                    case 0: return m00; case 1: return m01; case 2: return m02; case 3: return m03;
                    case 4: return m10; case 5: return m11; case 6: return m12; case 7: return m13;
                    case 8: return m20; case 9: return m21; case 10: return m22; case 11: return m23;
                    case 12: return m30; case 13: return m31; case 14: return m32; default: return m33;
                }
            }
            set
            {
                switch (row * 4 + column)
                {
                    case 0: m00 = value; break; case 1: m01 = value; break; case 2: m02 = value; break; case 3: m03 = value; break;
                    case 4: m10 = value; break; case 5: m11 = value; break; case 6: m12 = value; break; case 7: m13 = value; break;
                    case 8: m20 = value; break; case 9: m21 = value; break; case 10: m22 = value; break; case 11: m23 = value; break;
                    case 12: m30 = value; break; case 13: m31 = value; break; case 14: m32 = value; break; default: m33 = value; break;
                }
            }
        }
        public static Matrix4x4 TRS(Vector3 t, Quaternion r, Vector3 s)
        {
            Vector3 x = r * new Vector3(s.x, 0, 0), y = r * new Vector3(0, s.y, 0), z = r * new Vector3(0, 0, s.z);
            var m = identity;
            m.m00 = x.x; m.m10 = x.y; m.m20 = x.z;
            m.m01 = y.x; m.m11 = y.y; m.m21 = y.z;
            m.m02 = z.x; m.m12 = z.y; m.m22 = z.z;
            m.m03 = t.x; m.m13 = t.y; m.m23 = t.z;
            return m;
        }
        public static Matrix4x4 operator *(Matrix4x4 a, Matrix4x4 b)
        {
            var m = new Matrix4x4();
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                {
                    float sum = 0;
                    for (int k = 0; k < 4; k++) sum += a[i, k] * b[k, j];
                    m[i, j] = sum;
                }
            return m;
        }
        public Vector3 MultiplyPoint(Vector3 p) { return MultiplyPoint3x4(p); }
        public Vector3 MultiplyPoint3x4(Vector3 p)
        {
            return new Vector3(m00 * p.x + m01 * p.y + m02 * p.z + m03, m10 * p.x + m11 * p.y + m12 * p.z + m13, m20 * p.x + m21 * p.y + m22 * p.z + m23);
        }
        public Vector3 MultiplyVector(Vector3 v)
        {
            return new Vector3(m00 * v.x + m01 * v.y + m02 * v.z, m10 * v.x + m11 * v.y + m12 * v.z, m20 * v.x + m21 * v.y + m22 * v.z);
        }
        public Matrix4x4 inverse
        {
            get
            {
                // The inverse of an affine matrix: the 3x3 part inverted by cofactors.
                double a = m00, b = m01, c = m02, d = m10, e = m11, f = m12, g = m20, h = m21, i = m22;
                double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
                var m = identity;
                if (Math.Abs(det) < 1e-30) return m;
                double inv = 1.0 / det;
                m.m00 = (float)((e * i - f * h) * inv); m.m01 = (float)((c * h - b * i) * inv); m.m02 = (float)((b * f - c * e) * inv);
                m.m10 = (float)((f * g - d * i) * inv); m.m11 = (float)((a * i - c * g) * inv); m.m12 = (float)((c * d - a * f) * inv);
                m.m20 = (float)((d * h - e * g) * inv); m.m21 = (float)((b * g - a * h) * inv); m.m22 = (float)((a * e - b * d) * inv);
                Vector3 t = m.MultiplyVector(new Vector3(m03, m13, m23));
                m.m03 = -t.x; m.m13 = -t.y; m.m23 = -t.z;
                return m;
            }
        }
        public Vector4 GetColumn(int i) { return new Vector4(this[0, i], this[1, i], this[2, i], this[3, i]); }
    }

    public struct Bounds
    {
        public Vector3 center, extents;
        public Bounds(Vector3 center, Vector3 size) { this.center = center; extents = size * 0.5f; }
        public Vector3 size { get { return extents * 2f; } set { extents = value * 0.5f; } }
        public Vector3 min { get { return center - extents; } }
        public Vector3 max { get { return center + extents; } }
        public void Encapsulate(Vector3 p)
        {
            Vector3 lo = Vector3.Min(min, p), hi = Vector3.Max(max, p);
            center = (lo + hi) * 0.5f; extents = (hi - lo) * 0.5f;
        }
    }

    public struct Rect
    {
        public float x, y, width, height;
        public Rect(float x, float y, float width, float height) { this.x = x; this.y = y; this.width = width; this.height = height; }
    }

    public static class Mathf
    {
        public const float PI = (float)Math.PI;
        public const float Deg2Rad = (float)(Math.PI / 180.0);
        public const float Rad2Deg = (float)(180.0 / Math.PI);
        public const float Infinity = float.PositiveInfinity;
        public const float NegativeInfinity = float.NegativeInfinity;
        public static readonly float Epsilon = float.Epsilon;
        public static float Sin(float f) { return (float)Math.Sin(f); }
        public static float Cos(float f) { return (float)Math.Cos(f); }
        public static float Tan(float f) { return (float)Math.Tan(f); }
        public static float Asin(float f) { return (float)Math.Asin(f); }
        public static float Acos(float f) { return (float)Math.Acos(f); }
        public static float Atan(float f) { return (float)Math.Atan(f); }
        public static float Atan2(float y, float x) { return (float)Math.Atan2(y, x); }
        public static float Sqrt(float f) { return (float)Math.Sqrt(f); }
        public static float Abs(float f) { return Math.Abs(f); }
        public static int Abs(int f) { return Math.Abs(f); }
        public static float Min(float a, float b) { return a < b ? a : b; }
        public static float Min(params float[] values) { float m = values[0]; foreach (var v in values) if (v < m) m = v; return m; }
        public static int Min(int a, int b) { return a < b ? a : b; }
        public static float Max(float a, float b) { return a > b ? a : b; }
        public static float Max(params float[] values) { float m = values[0]; foreach (var v in values) if (v > m) m = v; return m; }
        public static int Max(int a, int b) { return a > b ? a : b; }
        public static float Pow(float f, float p) { return (float)Math.Pow(f, p); }
        public static float Exp(float p) { return (float)Math.Exp(p); }
        public static float Log(float f) { return (float)Math.Log(f); }
        public static float Log(float f, float p) { return (float)Math.Log(f, p); }
        public static float Log10(float f) { return (float)Math.Log10(f); }
        public static float Floor(float f) { return (float)Math.Floor(f); }
        public static float Ceil(float f) { return (float)Math.Ceiling(f); }
        public static float Round(float f) { return (float)Math.Round(f); }
        public static int FloorToInt(float f) { return (int)Math.Floor(f); }
        public static int CeilToInt(float f) { return (int)Math.Ceiling(f); }
        public static int RoundToInt(float f) { return (int)Math.Round(f); }
        public static float Sign(float f) { return f >= 0f ? 1f : -1f; }
        public static float Clamp(float v, float min, float max) { return v < min ? min : v > max ? max : v; }
        public static int Clamp(int v, int min, int max) { return v < min ? min : v > max ? max : v; }
        public static float Clamp01(float v) { return v < 0f ? 0f : v > 1f ? 1f : v; }
        public static float Lerp(float a, float b, float t) { return a + (b - a) * Clamp01(t); }
        public static float LerpUnclamped(float a, float b, float t) { return a + (b - a) * t; }
        public static float InverseLerp(float a, float b, float v) { return a != b ? Clamp01((v - a) / (b - a)) : 0f; }
        public static float Repeat(float t, float length) { return Clamp(t - Floor(t / length) * length, 0f, length); }
        public static float PingPong(float t, float length) { t = Repeat(t, length * 2f); return length - Abs(t - length); }
        public static bool Approximately(float a, float b) { return Abs(b - a) < Max(1E-06f * Max(Abs(a), Abs(b)), Epsilon * 8f); }
        public static float MoveTowards(float current, float target, float maxDelta)
        {
            return Abs(target - current) <= maxDelta ? target : current + Sign(target - current) * maxDelta;
        }
        public static float SmoothStep(float from, float to, float t)
        {
            t = Clamp01(t); t = -2f * t * t * t + 3f * t * t; return to * t + from * (1f - t);
        }
        public static float DeltaAngle(float current, float target)
        {
            float d = Repeat(target - current, 360f); if (d > 180f) d -= 360f; return d;
        }
    }
}
