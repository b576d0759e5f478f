# Sourced by the runners whose tool asks git itself where the repository is (`git rev-parse`,
# `git ls-files`): a case marks a repository with an empty `.git` directory, and
# `real_repositories DIR SCRATCH` turns each such marker from DIR up to `/` into a real,
# empty repository (git's own files written with SCRATCH as its home).
real_repositories() {
  _d=$1
  while :; do
    if [ -d "$_d/.git" ] && [ -z "$(ls -A "$_d/.git")" ]; then
      env -i PATH=/usr/bin:/bin HOME="$2" git -C "$_d" init -q
    fi
    [ "$_d" = / ] && break
    _d=$(dirname "$_d")
  done
}
