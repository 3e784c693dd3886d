"""The commands that are not the build: `pnp new` (new), `pnp list` (listing), `pnp
calibrate` (calibrate) and `pnp impose` of finished images (impose_images)."""
