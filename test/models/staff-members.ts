import { belongsTo, hasMany, Model } from "../../src/index.js";

/** A log of the callbacks run, by class, for the tests that check a subclass's callbacks reach its rows only. */
export const callbackLog: string[] = [];

/** Teams (migration 0090), with their engineers (senior ones included) and all their staff. */
export class StiTeam extends Model({ id: "integer", name: { type: "string", null: false } }) {
  static override binding = "DB";
  static override tableName = "sti_teams";
  engineers = hasMany(Engineer, { foreignKey: "stiTeamId", dependent: "destroy" });
  staff = hasMany(StaffMember, { foreignKey: "stiTeamId" });
}

/** Every kind of staff in one table (migration 0090); a plain staff member's row stores no type. */
export class StaffMember extends Model({
  id: "integer",
  type: "string",
  name: { type: "string", null: false },
  level: "integer",
  stiTeamId: "integer",
}) {
  static override binding = "DB";
  static override tableName = "sti_staff";
  static {
    this.inheritance(() => ({ Manager, Engineer, SeniorEngineer }));
    this.validates("name", { presence: true });
  }
  stiTeam = belongsTo(StiTeam, { foreignKey: "stiTeamId", optional: true });
}

export class Manager extends StaffMember {
  static named(name: string) {
    return this.where({ name });
  }
}

export class Engineer extends StaffMember {
  static seniors = this.scope((q) => q.where({ level: [3, 4, 5] }));
  static {
    this.validates("level", { presence: true });
    this.beforeSave((record) => {
      callbackLog.push(`Engineer ${record.name}`);
    });
  }
}

export class SeniorEngineer extends Engineer {}
