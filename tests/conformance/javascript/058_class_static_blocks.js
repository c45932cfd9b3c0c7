// Static initialisation blocks run once, in order with static fields, this being the class.
class Palette {
  static colors = ['red'];
  static {
    this.colors.push('green');
    Palette.count = this.colors.length;
  }
  static blue = 'blue';
  static {
    this.colors.push(this.blue);
  }
}
console.log(Palette.colors.join(), Palette.count);
