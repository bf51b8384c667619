import { abort, belongsTo, type HasManyDependent, hasMany, Model } from "../../src/index.js";

/** The tables of migration 0170, emptied before each test. */
export const SET_IDS_TABLES = ["si_comments", "si_notes", "si_pictures", "si_posts", "si_albums", "si_photos"] as const;

/**
 * Posts on integer keys with comments (a nullable foreign key, counted by `siCommentsCount`) and notes (a NOT NULL
 * foreign key), on the tables of migration 0170; albums and photos on text keys holding pictures through a polymorphic
 * `holder`. A comment's body must be present. Each call makes new classes: `comments`, `notes` and `pictures` give each association's `dependent`;
 * `callbacks` gives comments destroy and save callbacks, which `log` records; `refuse` names the body of a comment
 * whose save a callback aborts.
 */
export function setIdsPosts(options: { comments?: HasManyDependent; notes?: HasManyDependent; pictures?: HasManyDependent; callbacks?: boolean; refuse?: string } = {}) {
  const log: string[] = [];
  const dependent = (value: HasManyDependent | undefined) => (value ? { dependent: value } : {});
  class SiPost extends Model({ id: "integer", title: "string", siCommentsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "si_posts";
    comments = hasMany(SiComment, dependent(options.comments));
    shortComments = hasMany(SiComment, { scope: (q) => q.where({ body: "short" }) });
    notes = hasMany(SiNote, dependent(options.notes));
  }
  class SiComment extends Model({ id: "integer", siPostId: "integer", body: "string" }) {
    static override binding = "DB";
    static override tableName = "si_comments";
    static {
      if (options.callbacks) {
        this.beforeDestroy((comment) => void log.push(`destroy ${comment.body}`));
        this.beforeSave((comment) => void log.push(`save ${comment.body}`));
      }
      this.beforeSave((comment) => {
        if (comment.body === options.refuse) throw abort(`${comment.body} refused`);
      });
      this.validates("body", { presence: true });
    }
    siPost = belongsTo(SiPost, { counterCache: true, optional: true });
  }
  class SiNote extends Model({ id: "integer", siPostId: { type: "integer", null: false }, body: "string" }) {
    static override binding = "DB";
    static override tableName = "si_notes";
    siPost = belongsTo(SiPost);
  }
  class SiAlbum extends Model({ id: { type: "string", null: false }, name: "string" }) {
    static override binding = "DB";
    static override tableName = "si_albums";
    pictures = hasMany(SiPicture, { as: "holder", ...dependent(options.pictures) });
  }
  class SiPhoto extends Model({ id: { type: "string", null: false }, name: "string" }) {
    static override binding = "DB";
    static override tableName = "si_photos";
    pictures = hasMany(SiPicture, { as: "holder" });
  }
  class SiPicture extends Model({ id: { type: "string", null: false }, holderType: "string", holderId: "string", name: "string" }) {
    static override binding = "DB";
    static override tableName = "si_pictures";
    holder = belongsTo([SiAlbum, SiPhoto], { polymorphic: true, optional: true });
  }
  return { SiPost, SiComment, SiNote, SiAlbum, SiPhoto, SiPicture, log };
}

export type SetIdsPosts = ReturnType<typeof setIdsPosts>;
