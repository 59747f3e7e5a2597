# scikit-learn inside the sandbox (scripts/build-sklearn.sh): linear models,
# trees and forests, clustering, preprocessing, model selection and metrics
# on fixed data with fixed random_state. The expected lines in
# runtime/bundle_test.go are what native scikit-learn 1.9.1 (PyPI wheel,
# numpy 2.4.6, scipy 1.17.1, x86-64, one thread) prints for this file.
import numpy as np
import sklearn
from sklearn.cluster import KMeans
from sklearn.datasets import load_diabetes, load_iris
from sklearn.decomposition import PCA
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import Lasso, LinearRegression, LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, confusion_matrix, mean_squared_error, r2_score
from sklearn.model_selection import KFold, cross_val_score, train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeRegressor


def r(x, n=4):
    return [round(float(v), n) for v in np.ravel(x)]


print("version", sklearn.__version__)

X, y = load_diabetes(return_X_y=True)
print("diabetes", X.shape, round(float(y.sum()), 1))
Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=42)
print("split", Xtr.shape, Xte.shape, r(ytr[:3], 1))

lr = LinearRegression().fit(Xtr, ytr)
print("linreg", r(lr.coef_[:4], 2), round(float(lr.intercept_), 3), round(r2_score(yte, lr.predict(Xte)), 5))
ridge = Ridge(alpha=1.0).fit(Xtr, ytr)
print("ridge", r(ridge.coef_[:4], 3), round(r2_score(yte, ridge.predict(Xte)), 5))
lasso = Lasso(alpha=0.1).fit(Xtr, ytr)
print("lasso", int((lasso.coef_ != 0).sum()), round(r2_score(yte, lasso.predict(Xte)), 5))
print("cv ridge", r(cross_val_score(Ridge(alpha=0.5), X, y, cv=KFold(5, shuffle=True, random_state=0)), 4))

tree = DecisionTreeRegressor(max_depth=4, random_state=0).fit(Xtr, ytr)
print("tree", tree.get_depth(), tree.get_n_leaves(), r(tree.feature_importances_, 4))
rf = RandomForestRegressor(n_estimators=30, random_state=0).fit(Xtr, ytr)
imp = rf.feature_importances_
print("forest top", [int(i) for i in np.argsort(imp)[::-1][:3]], r(imp, 4))
print("forest r2", round(r2_score(yte, rf.predict(Xte)), 4), round(mean_squared_error(yte, rf.predict(Xte)), 2))

Xi, yi = load_iris(return_X_y=True)
Xitr, Xite, yitr, yite = train_test_split(Xi, yi, test_size=0.3, random_state=1, stratify=yi)
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(Xitr, yitr)
pred = clf.predict(Xite)
print("logreg", round(accuracy_score(yite, pred), 4), confusion_matrix(yite, pred).tolist())
print("proba", r(clf.predict_proba(Xite[:2]), 4))
rfc = RandomForestClassifier(n_estimators=20, random_state=0).fit(Xitr, yitr)
print("forest clf", round(accuracy_score(yite, rfc.predict(Xite)), 4), r(rfc.feature_importances_, 4))
knn = KNeighborsClassifier(n_neighbors=5).fit(Xitr, yitr)
print("knn", round(knn.score(Xite, yite), 4))

km = KMeans(n_clusters=3, random_state=0, n_init=10).fit(Xi)
print("kmeans", round(float(km.inertia_), 4), sorted(np.bincount(km.labels_).tolist()))
pca = PCA(n_components=2).fit(Xi)
print("pca", r(pca.explained_variance_ratio_, 5))

sc = StandardScaler().fit(Xi)
Z = sc.transform(Xi)
print("scaler", r(sc.mean_, 4), bool(np.abs(Z.mean(axis=0)).max() < 1e-12), r(Z.std(axis=0), 6))
enc = OneHotEncoder(handle_unknown="ignore")
cats = np.array([["red", "S"], ["blue", "M"], ["red", "L"], ["green", "M"]], dtype=object)
oh = enc.fit_transform(cats)
print("onehot", [c.tolist() for c in enc.categories_], oh.shape, oh.toarray()[0].tolist(),
      enc.transform([["purple", "S"]]).toarray().tolist())

# Errors reach Python as exceptions, and the interpreter carries on.
try:
    LinearRegression().fit(np.ones((3, 2)), np.ones(4))
except ValueError as e:
    print("mismatch raised ValueError", "inconsistent numbers of samples" in str(e))
try:
    LinearRegression().fit([[np.nan, 1.0], [2.0, 3.0]], [1.0, 2.0])
except ValueError as e:
    print("nan raised ValueError", "NaN" in str(e))
print("still alive", round(float(Ridge().fit(Xtr, ytr).score(Xte, yte)), 4))
