// TypeScript class members: modifiers, optional and declared fields, static readonly.
class Model {
  static readonly DEFAULT = 1.5;
  private readonly created: number = 7;
  protected label?: string;
  declare note: string;
  public scale = Model.DEFAULT;
  override_me(): string { return 'base'; }
  get summary(): string { return `${this.created} ${this.label} ${this.scale}`; }
}
class Special extends Model {
  override override_me(): string { return 'special ' + super.override_me(); }
}
const m = new Special();
console.log(m.summary, m.override_me(), Model.DEFAULT, 'note' in m, 'label' in m);
console.log(Object.keys(m).join(','));
